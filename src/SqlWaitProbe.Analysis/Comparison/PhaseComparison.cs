namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>One phase set side by side across the captures; every per-execution figure is in ms (or pages, spins) per execution.</summary>
public sealed record PhaseComparison
{
    /// <summary>The phase's name, or <c>A-phase vs B-phase</c> when captures with no shared phase are compared by their main phases.</summary>
    public required string Name { get; init; }

    /// <summary>Each capture's phase, in the comparison's order.</summary>
    public required IReadOnlyList<PhaseSide> Sides { get; init; }

    /// <summary>Session time, waits, CPU, unaccounted and its causes, ms per execution.</summary>
    public IReadOnlyList<DeltaRow> Ledger { get; init; } = [];

    /// <summary>Executions, errors, executions/s, latency percentiles (ms).</summary>
    public IReadOnlyList<DeltaRow> Throughput { get; init; } = [];

    /// <summary>Wait types, ms per execution, largest change first.</summary>
    public IReadOnlyList<DeltaRow> Waits { get; init; } = [];

    /// <summary>Latch classes (SQL Server), wait ms per execution, largest change first.</summary>
    public IReadOnlyList<DeltaRow> Latches { get; init; } = [];

    /// <summary>Spinlocks (SQL Server), spins per execution, largest change first.</summary>
    public IReadOnlyList<DeltaRow> Spinlocks { get; init; } = [];

    /// <summary>XE pages allocated and freed per execution by memory clerk (SQL Server), largest change first.</summary>
    public IReadOnlyList<DeltaRow> XePages { get; init; } = [];

    /// <summary>Server CPU split: user and kernel (privileged) CPU ms per execution, and the kernel share of samples.</summary>
    public IReadOnlyList<DeltaRow> OsCpu { get; init; } = [];

    /// <summary>Server-process modules, CPU ms per execution, largest change first.</summary>
    public IReadOnlyList<DeltaRow> Modules { get; init; } = [];

    /// <summary>Stack tags, CPU ms per execution, largest change first.</summary>
    public IReadOnlyList<DeltaRow> Tags { get; init; } = [];

    /// <summary>Σ module CPU ms per execution per capture (what module shares of change divide by).</summary>
    public double ModuleTotal(int index) => Modules.Sum(m => m.Values[index] ?? 0);
}
