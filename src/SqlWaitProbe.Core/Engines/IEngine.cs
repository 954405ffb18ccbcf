using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Core.Engines;

/// <summary>
/// What one database engine contributes to a capture. The engine-neutral capture session owns the run (plan,
/// disk watch, signals, cancellation, log, manifest, phases, OS collectors, ending rule, analysis) and asks the
/// engine only for what differs between engines: preparing the server and the data, opening sessions (through
/// <see cref="IWorkloadTarget"/>), its own collectors, the attach filter, and removing what it left behind.
/// An engine is created from the capture's options by its module (<see cref="IEngineModule"/>), which validates the options that
/// apply to it (exit 2) before anything starts; a new engine is one new project implementing this interface.
/// </summary>
public interface IEngine
{
    /// <summary>The engine's name in the manifest and on the command line: <c>postgres</c>, <c>sqlserver</c>.</summary>
    string Name { get; }

    /// <summary>The server's process name, as OS collectors and analysis look for it (<c>postgres</c>, <c>sqlservr</c>).</summary>
    string ServerProcess { get; }

    /// <summary>True when every session is served by its own OS process (PostgreSQL backends), so per-session CPU can be read from the OS.</summary>
    bool ProcessPerSession { get; }

    /// <summary>The run id (letters and digits) that names everything this capture creates: temp folders, XE sessions, perf files.</summary>
    string RunId { get; }

    /// <summary>The workload to run; null in attach mode.</summary>
    WorkloadDefinition? Workload { get; }

    /// <summary>Before connecting: whether the server named on the command line is this machine (what a dry run can tell).</summary>
    bool LooksLocal { get; }

    /// <summary>A question the user must answer yes to (or give <c>--yes</c>) before anything is sent, e.g. for resetting server-wide statistics; null when none.</summary>
    EngineConfirmation? Confirmation { get; }

    /// <summary>Starts or connects to the server, checks version and permissions, removes the probe's stale leftovers; nothing of the workload yet.</summary>
    Task<EngineServer> PrepareServerAsync(CapturePlan plan, IProgress<string> progress, CancellationToken cancellationToken);

    /// <summary>Creates or reuses the workload's tables and data (after <see cref="PrepareServerAsync"/>); the target opens the driver's sessions.</summary>
    Task<IWorkloadTarget> PrepareWorkloadAsync(IProgress<string> progress, CancellationToken cancellationToken);

    /// <summary>Attach mode: finds the sessions to watch with the user's filters (read-only).</summary>
    Task<AttachWindow> AttachAsync(IProgress<string> progress, CancellationToken cancellationToken);

    /// <summary>Fresh engine collectors (waits, DMVs, XE…) for one phase.</summary>
    IReadOnlyList<ICollector> CollectorsFor(PhaseContext phase);

    /// <summary>The text of <c>workload.sql</c>: the workload in the engine's own script syntax.</summary>
    string WorkloadScript(WorkloadDefinition workload);

    /// <summary>An option value as the manifest may keep it (secrets removed).</summary>
    string RedactOption(string option, string value);

    /// <summary>An error message as the manifest, log and console may show it (secrets removed).</summary>
    string RedactMessage(string message);

    /// <summary>Writes every statement the capture would send, in order, connecting to nothing.</summary>
    Task WriteDryRunAsync(CapturePlan plan, TextWriter output, CancellationToken cancellationToken);

    /// <summary>Stops what the engine started (embedded server, XE sessions, connections); safe after a failure or cancellation.</summary>
    Task StopAsync(IProgress<string> progress);

    /// <summary>The forced-exit path (second Ctrl+C): kills what the engine started at once, without waiting.</summary>
    void KillNow();
}
