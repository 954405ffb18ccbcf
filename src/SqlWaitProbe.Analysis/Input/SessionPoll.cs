namespace SqlWaitProbe.Analysis.Input;

/// <summary>One watched session that was not idle at one poll of the session sampler (a row of activity.csv with a session).</summary>
/// <param name="Session">The session's number.</param>
/// <param name="Ms">The poll, ms since the phase start.</param>
/// <param name="WaitType">What it waited on; null on a CPU or waiting for one.</param>
/// <param name="SampleMs">The mean interval between polls, ms.</param>
public sealed record SessionPoll(int Session, double Ms, string? WaitType, double SampleMs);
