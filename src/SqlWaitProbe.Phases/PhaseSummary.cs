using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Phases;

/// <summary>
/// What a phase achieved, for the console summary: its executions as <see cref="ExecutionTally"/> counts them from the
/// rows written to <c>executions.csv</c>, the tally analysis reads back, so the summary and the report agree.
/// </summary>
/// <param name="Name">Phase name.</param>
/// <param name="Threads">Concurrent sessions.</param>
/// <param name="Counts">The phase's executions.</param>
/// <param name="Seconds">Length of the phase's window, the manifest's <c>windowMs</c> ÷ 1000.</param>
/// <param name="Overhead">The observer-effect estimate.</param>
public sealed record PhaseSummary(string Name, int Threads, ExecutionCounts Counts, double Seconds, OverheadEstimate Overhead)
{
    /// <summary>Executions that started in the phase.</summary>
    public long Executions => Counts.Executions;

    /// <summary>Executions that failed.</summary>
    public long Errors => Counts.Errors;

    /// <summary>Executions per second: counted executions ÷ the window.</summary>
    public double PerSecond => Counts.PerSecond(Seconds);

    /// <summary>Session time per execution, ms.</summary>
    public double MsPerExecution => Counts.MsPerExecution;
}
