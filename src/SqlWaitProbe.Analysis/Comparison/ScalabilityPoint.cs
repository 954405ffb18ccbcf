namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>One capture's phase on the scalability chart of a comparison whose captures ran at different session counts.</summary>
/// <param name="Label">The capture's label.</param>
/// <param name="Threads">Concurrent sessions.</param>
/// <param name="ExecutionsPerSecond">Measured executions per second.</param>
/// <param name="MsPerExecution">Session ms per execution.</param>
/// <param name="IdealExecutionsPerSecond">Threads × 1000 ÷ ms per execution of the capture with the fewest sessions, capped by the machine's CPUs at its CPU per execution (<see cref="Ledger.IdealThroughput"/>).</param>
public sealed record ScalabilityPoint(string Label, int Threads, double ExecutionsPerSecond, double MsPerExecution, double IdealExecutionsPerSecond)
{
    /// <summary>Measured ÷ ideal, or 0 without an ideal.</summary>
    public double VsIdeal => IdealExecutionsPerSecond > 0 ? ExecutionsPerSecond / IdealExecutionsPerSecond : 0;
}
