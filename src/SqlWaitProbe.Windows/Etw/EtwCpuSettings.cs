using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Windows.OffCpu;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>What the ETW collector needs to know about the capture.</summary>
public sealed record EtwCpuSettings
{
    /// <summary>The capture's run id; the session is named <c>SqlWaitProbe-&lt;runId&gt;</c>.</summary>
    public required string RunId { get; init; }

    /// <summary>The capture's scope, whose run folder records the ETW session for <c>probe cleanup</c>; a scope of its own when null.</summary>
    public RunScope? Scope { get; init; }

    /// <summary>ETW's default profile interval, as PerfView uses.</summary>
    public const double DefaultIntervalMSec = 1.0;

    /// <summary>Shortest profile interval Windows accepts.</summary>
    public const double MinIntervalMSec = 0.125;

    /// <summary>Longest profile interval Windows accepts.</summary>
    public const double MaxIntervalMSec = 1000.0;

    /// <summary>Profile interval in milliseconds, from <see cref="MinIntervalMSec"/> to <see cref="MaxIntervalMSec"/>.</summary>
    public double IntervalMSec { get; init; } = DefaultIntervalMSec;

    /// <summary>
    /// The largest .etl a phase's kernel session writes, MB: past it the session drops events instead of filling the
    /// disk, which also bounds a session left running by a killed probe.
    /// </summary>
    public int MaxFileMegabytes { get; init; } = DefaultMaxFileMegabytes;

    /// <summary>4 GB: a 60 s phase of 1 kHz sampling with stacks on 64 CPUs and context switches stays well below it.</summary>
    public const int DefaultMaxFileMegabytes = 4096;

    /// <summary>Process name of the database server (the engine's), whose modules get symbols first.</summary>
    public required string ServerProcess { get; init; }

    /// <summary>
    /// The server's pid (<c>SERVERPROPERTY('ProcessID')</c>) when it runs on this machine: only its samples are the
    /// workload's; another process of the same name is filed as other. Null: every process of that name counts.
    /// </summary>
    public int? ServerPid { get; init; }

    /// <summary>The workload's processes for the stack mapper, or null without a server pid.</summary>
    public WorkloadProcesses? Workload => ServerPid is { } pid
        ? new WorkloadProcesses(ServerProcess, [new WorkloadProcess(pid, 0, ServerProcess, 0, 0, 0, RunningAtEnd: true)])
        : null;

    /// <summary>Where symbols come from; null to keep module-level frames only.</summary>
    public SymbolOptions? Symbols { get; init; }

    /// <summary>Most modules to load symbols for.</summary>
    public int MaxSymbolModules { get; init; } = SymbolResolutionPlan.DefaultMaxModules;

    /// <summary>
    /// Set when off-CPU stacks are on: the session also records CSwitch and ReadyThread with stacks, and the collector
    /// writes the off-CPU files of the server's threads and sets this outcome. Null: CPU samples only.
    /// </summary>
    public EtwOffCpuOutcome? OffCpuOutcome { get; init; }

    /// <summary>True when off-CPU stacks are recorded.</summary>
    public bool OffCpu => OffCpuOutcome is not null;

    /// <summary>Folder for the raw trace while recording (default: the temporary folder).</summary>
    public string? WorkFolder { get; init; }
}
