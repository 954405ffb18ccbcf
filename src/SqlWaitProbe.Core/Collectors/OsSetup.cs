using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>What an OS collector module decides from and builds with, for one capture.</summary>
public sealed record OsSetup
{
    /// <summary>The capture's options.</summary>
    public required OptionValues Options { get; init; }

    /// <summary>The server's process name (<c>postgres</c>, <c>sqlservr</c>).</summary>
    public required string ServerProcess { get; init; }

    /// <summary>True when the server runs on this machine, so its processes can be observed here.</summary>
    public required bool ServerIsLocal { get; init; }

    /// <summary>True when every session is served by its own OS process (PostgreSQL backends).</summary>
    public required bool ProcessPerSession { get; init; }

    /// <summary>Length of each phase in seconds; null when not known before it runs (<c>--iterations</c>).</summary>
    public double? PhaseSeconds { get; init; }

    /// <summary>Logical CPUs of this machine.</summary>
    public int LogicalCpus { get; init; } = Environment.ProcessorCount;

    /// <summary>The server's own process when the engine knows it: it and its descendants are the workload's CPU.</summary>
    public int? ServerPid { get; init; }

    /// <summary>The process that starts a server process per session, on this machine (<see cref="Engines.EngineServer.SessionParentPid"/>).</summary>
    public int? SessionParentPid { get; init; }

    /// <summary>What the capture owns on this machine: run folder and child processes (null for a dry run, which starts nothing).</summary>
    public RunScope? Scope { get; init; }

    /// <summary>
    /// The capture's progress (the console and <c>capture.log</c>), for what a collector does at length after its phase,
    /// such as loading symbols; null where nobody follows (a dry run).
    /// </summary>
    public IProgress<string>? Progress { get; init; }

    /// <summary>The scope, which only a capture that starts collectors has.</summary>
    public RunScope RequiredScope => Scope ?? throw new InvalidOperationException("a dry run starts no collector");
}
