namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>The ledger's parts measured over each session's own span of executions (docs/analysis.md, "One span").</summary>
/// <param name="SessionMs">Σ execution time of the sessions measured.</param>
/// <param name="CpuMs">On-CPU ms of their server processes inside their spans.</param>
/// <param name="RunQueueMs">Run-queue ms inside their spans.</param>
/// <param name="Coverage">Share of the spans the CPU readings covered (1 when the collector ran throughout).</param>
/// <param name="Waits">Wait ms by type inside the spans, or null when wait samples were not captured.</param>
/// <param name="WallMs">First execution start to last execution end over all sessions.</param>
public sealed record SpanParts(double SessionMs, double CpuMs, double RunQueueMs, double Coverage, IReadOnlyDictionary<string, double>? Waits, double WallMs)
{
    /// <summary>The sessions' parallel workers started inside their spans, or null when they were not watched.</summary>
    public WorkerParts? Workers { get; init; }

    /// <summary>Sessions busy on average: session time ÷ wall time.</summary>
    public double BusySessions => WallMs > 0 ? SessionMs / WallMs : 0;

    /// <summary>The most CPU the sessions could have had, as a share of session time: CPUs ÷ busy sessions, at most 1.</summary>
    public double CpuShareBound(int logicalCpus) => BusySessions > 0 && logicalCpus > 0 ? Math.Min(1, logicalCpus / BusySessions) : 1;
}
