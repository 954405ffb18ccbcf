using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>The SQL Server-specific choices of one capture, parsed from the command line.</summary>
public sealed record SqlServerSettings
{
    /// <summary>The capture's run id (letters and digits).</summary>
    public required string RunId { get; init; }

    /// <summary>What the capture owns on this machine (its run folder records the XE sessions); null in a dry run of tests.</summary>
    public RunScope? Scope { get; init; }

    /// <summary>The workload, or null in attach mode.</summary>
    public WorkloadDefinition? Workload { get; init; }

    /// <summary>True in attach mode: no workload, server-wide deltas plus filters, nothing destructive.</summary>
    public bool Attach => Workload is null;

    /// <summary>Extended-event streams to capture.</summary>
    public IReadOnlyList<XeStream> XeStreams { get; init; } = [];

    /// <summary>DMV snapshot interval.</summary>
    public TimeSpan SnapshotInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Clear server statistics and buffers before the run (workload runs only, confirmed).</summary>
    public bool ResetServerState { get; init; }

    /// <summary>
    /// <c>--offcpu on</c>: poll which OS thread runs each session's tasks, so the ETW context switches of the server
    /// (Windows off-CPU stacks) can be booked to sessions.
    /// </summary>
    public bool SampleWorkerThreads { get; init; }

    /// <summary>Cap on the XE event files, MB.</summary>
    public int MaxXeMegabytes { get; init; } = 512;

    /// <summary>Attach-mode filter: database.</summary>
    public string? FilterDatabase { get; init; }

    /// <summary>Attach-mode filter: application name.</summary>
    public string? FilterApplication { get; init; }

    /// <summary>Attach-mode filter: login.</summary>
    public string? FilterLogin { get; init; }

    /// <summary>Attach-mode filter: session ids.</summary>
    public IReadOnlyList<int> FilterSessionIds { get; init; } = [];

    /// <summary>The application name of the probe's own connections.</summary>
    public string ApplicationName => "SqlWaitProbe-" + RunId;
}
