namespace SqlWaitProbe.Analysis.Statements;

/// <summary>One row of activity.csv: what one session was doing at one poll.</summary>
/// <param name="Ms">ms since the phase start.</param>
/// <param name="Session">The watched session's number; null for a session outside them (a blocker).</param>
/// <param name="Pid">The server's id of the session.</param>
/// <param name="State">Its state as the server names it.</param>
/// <param name="Statement">Its statement's key, when known.</param>
/// <param name="WaitType">What it waited on; null on a CPU or waiting for one.</param>
/// <param name="BlockedBy">The server ids of the sessions it waited behind.</param>
/// <param name="SampleMs">The time the sample stands for, ms.</param>
public sealed record ActivitySample(double Ms, int? Session, string Pid, string State, string? Statement, string? WaitType, IReadOnlyList<string> BlockedBy, double SampleMs)
{
    /// <summary>Running a statement (PostgreSQL <c>active</c>, SQL Server <c>running</c>, <c>runnable</c>, <c>suspended</c>).</summary>
    public bool IsActive => State is "active" or "running" or "runnable" or "suspended" or "fastpath function call";

    /// <summary>
    /// The part of the time the sample stands for (<see cref="SampleMs"/> centred on its poll, as
    /// <see cref="CpuAttribution"/> places it) that lies inside the phase's window of <paramref name="windowMs"/>: the
    /// sampler starts before an attach window opens and stops after it closes, and what it saw then is not the
    /// window's time. A sample without a time (bundles from before <c>sample_ms</c>) counts as is when its poll is inside.
    /// </summary>
    public double MsInside(double windowMs)
    {
        if (SampleMs <= 0)
        {
            return Ms >= 0 && Ms <= windowMs ? SampleMs : 0;
        }

        var half = SampleMs / 2;
        return Math.Max(0, Math.Min(Ms + half, windowMs) - Math.Max(Ms - half, 0));
    }
}
