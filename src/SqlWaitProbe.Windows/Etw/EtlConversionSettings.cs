using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Windows.OffCpu;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>What turning a phase's .etl into the bundle's stack files needs to know about the capture.</summary>
public sealed record EtlConversionSettings
{
    /// <summary>Process name of the database server (<c>sqlservr</c>).</summary>
    public required string ServerProcess { get; init; }

    /// <summary>The server's pid, when known: its threads' context switches make the off-CPU files.</summary>
    public int? ServerPid { get; init; }

    /// <summary>The workload's processes, to file a same-named process with another pid as other; null for none.</summary>
    public WorkloadProcesses? Workload { get; init; }

    /// <summary>Whether the session recorded context switches for off-CPU stacks.</summary>
    public bool OffCpu { get; init; }

    /// <summary>
    /// The off-CPU collector's outcome, set as soon as the off-CPU files are written, before any symbol is looked up;
    /// null when no collector waits for it.
    /// </summary>
    public EtwOffCpuOutcome? OffCpuOutcome { get; init; }

    /// <summary>
    /// The longest the symbol lookup may take for the phase (<see cref="BoundedSymbolLookup.DefaultBudget"/>): past it the
    /// stacks keep module-level frames and the phase's stop goes on.
    /// </summary>
    public TimeSpan SymbolBudget { get; init; } = BoundedSymbolLookup.DefaultBudget;

    /// <summary>The profile interval asked for, in ms, when the trace does not record the one Windows used.</summary>
    public double IntervalMSec { get; init; } = EtwCpuSettings.DefaultIntervalMSec;
}
