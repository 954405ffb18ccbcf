namespace SqlWaitProbe.Core.Bundle;

/// <summary>The <c>manifest.json</c> of a capture bundle (schema in docs/bundle-format.md).</summary>
public sealed record BundleManifest
{
    /// <summary>The bundle schema version this code writes.</summary>
    public const int CurrentSchemaVersion = 1;

    /// <summary>Bundle schema version.</summary>
    public int SchemaVersion { get; init; } = CurrentSchemaVersion;

    /// <summary>Version of the probe that wrote the bundle.</summary>
    public string ToolVersion { get; init; } = "";

    /// <summary>Random id of this capture; XE sessions and temporary folders carry it.</summary>
    public string RunId { get; init; } = "";

    /// <summary>Host name of the machine that captured.</summary>
    public string Host { get; init; } = "";

    /// <summary>Operating system description, e.g. <c>Linux 6.1.0 x64</c>.</summary>
    public string Os { get; init; } = "";

    /// <summary>Logical CPU count of the capturing machine.</summary>
    public int LogicalCpus { get; init; }

    /// <summary><c>postgres</c> or <c>sqlserver</c>.</summary>
    public string Engine { get; init; } = "";

    /// <summary>Server version string as the server reports it.</summary>
    public string ServerVersion { get; init; } = "";

    /// <summary>Process name of the database server (<c>postgres</c>, <c>sqlservr</c>), used to pick its stacks.</summary>
    public string ServerProcess { get; init; } = "";

    /// <summary>Workload name, or <c>attach</c> when no workload ran.</summary>
    public string Workload { get; init; } = "";

    /// <summary>
    /// An attach-mode capture: the probe ran no workload and watched the server's own sessions. The manifest's workload
    /// says so, in every bundle version; nothing else decides it.
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool IsAttach => Workload == PhaseNames.Attach;

    /// <summary>The window of an attach-mode capture: a phase of no sessions of the probe's own, hence no executions.csv.</summary>
    public bool IsAttachWindow(BundlePhase phase) => IsAttach && phase.Threads == 0;

    /// <summary>The capture options as given, with secrets removed.</summary>
    public IReadOnlyDictionary<string, string> Options { get; init; } = new Dictionary<string, string>();

    /// <summary>
    /// The server's configuration as the capture read it, read-only, at its start: e.g. SQL Server's memory model, global
    /// trace flags, MAXDOP, Resource Governor caps; PostgreSQL's non-default settings. Empty in bundles that predate it.
    /// <c>probe compare</c> labels captures by what differs here.
    /// </summary>
    public IReadOnlyDictionary<string, string> Configuration { get; init; } = new Dictionary<string, string>();

    /// <summary>The experiment variant this capture is (<c>probe experiment</c>), or null for a capture of its own.</summary>
    public BundleExperiment? Experiment { get; init; }

    /// <summary>Phases in the order they ran.</summary>
    public IReadOnlyList<BundlePhase> Phases { get; init; } = [];

    /// <summary>The warm-up run before the first phase (<c>--warmup</c>), not measured; null when none ran.</summary>
    public BundleWarmup? Warmup { get; init; }

    /// <summary>Each collector's outcome.</summary>
    public IReadOnlyList<BundleCollector> Collectors { get; init; } = [];

    /// <summary><c>complete</c>, <c>interrupted</c> or <c>failed</c>.</summary>
    public string Status { get; init; } = BundleStatus.Complete;

    /// <summary>Why the capture did not complete (<c>ctrl-c</c>, <c>disk</c>, an error message), else null.</summary>
    public string? Reason { get; init; }

    /// <summary>UTC time the capture started.</summary>
    public DateTime StartUtc { get; init; }

    /// <summary>UTC time the capture ended.</summary>
    public DateTime EndUtc { get; init; }

    /// <summary>What fired the dump when <c>probe watch</c> wrote this bundle; null for a capture.</summary>
    public BundleTrigger? Trigger { get; init; }

    /// <summary>Every file of the bundle except the manifest, with size and SHA-256.</summary>
    public IReadOnlyList<BundleFile> Files { get; init; } = [];
}

/// <summary>One phase: a fixed number of concurrent sessions over a time window.</summary>
public sealed record BundlePhase
{
    /// <summary><c>baseline</c>, <c>load</c>, or a sweep level named by its thread count.</summary>
    public string Name { get; init; } = "";

    /// <summary>Concurrent workload sessions.</summary>
    public int Threads { get; init; }

    /// <summary>When the barrier released the sessions: the phase's window opens.</summary>
    public DateTime StartUtc { get; init; }

    /// <summary>When the phase's window closed (older bundles: when the last session stopped).</summary>
    public DateTime EndUtc { get; init; }

    /// <summary>
    /// The window's length in ms on the driver's clock, the clock of <c>executions.csv</c>: an execution that ends after
    /// it was still running at the phase end. Null in bundles written before windows were recorded.
    /// </summary>
    public double? WindowMs { get; init; }

    /// <summary>Executions that started in the window (errors included), those still running at its end too.</summary>
    public long Executions { get; init; }

    /// <summary>Executions that failed.</summary>
    public long Errors { get; init; }
}

/// <summary>A collector's outcome.</summary>
public sealed record BundleCollector
{
    /// <summary>Collector name, e.g. <c>perf</c>, <c>proc</c>, <c>pg-waits</c>, <c>dmv</c>, <c>xe-pages</c>.</summary>
    public string Name { get; init; } = "";

    /// <summary><c>ok</c>, <c>partial</c>, <c>failed</c> or <c>skipped</c>.</summary>
    public string Status { get; init; } = CollectorStatus.Ok;

    /// <summary>Events or samples the source reported lost.</summary>
    public long LostEvents { get; init; }

    /// <summary>What went wrong, when status is not ok.</summary>
    public string? Error { get; init; }
}

/// <summary>A file the manifest vouches for: its size and hash let a reader tell a damaged or edited bundle.</summary>
/// <param name="Path">Relative path with forward slashes.</param>
/// <param name="Bytes">Size in bytes.</param>
/// <param name="Sha256">Lower-case hex SHA-256.</param>
public sealed record BundleFile(string Path, long Bytes, string Sha256);

/// <summary>Values of <see cref="BundleManifest.Status"/>.</summary>
public static class BundleStatus
{
    /// <summary>Every phase ran to its end.</summary>
    public const string Complete = "complete";
    /// <summary>Stopped early (Ctrl+C, SIGTERM, disk); what was captured is kept.</summary>
    public const string Interrupted = "interrupted";
    /// <summary>An error stopped the capture.</summary>
    public const string Failed = "failed";
    /// <summary>The capture is still being written (seen only in a bundle whose writer died).</summary>
    public const string Running = "running";
}

/// <summary>Values of <see cref="BundleCollector.Status"/>.</summary>
public static class CollectorStatus
{
    /// <summary>Collected everything it should.</summary>
    public const string Ok = "ok";
    /// <summary>Collected some data but lost some.</summary>
    public const string Partial = "partial";
    /// <summary>Collected nothing usable.</summary>
    public const string Failed = "failed";
    /// <summary>Not run (switched off or not applicable).</summary>
    public const string Skipped = "skipped";
}
