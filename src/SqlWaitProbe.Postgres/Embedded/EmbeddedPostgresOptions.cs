namespace SqlWaitProbe.Postgres.Embedded;

/// <summary>How to start an embedded server.</summary>
public sealed record EmbeddedPostgresOptions
{
    /// <summary>Most concurrent workload sessions the server must accept (monitoring connections are added).</summary>
    public int MaxSessions { get; init; } = 8;

    /// <summary><c>max_parallel_workers_per_gather</c>; 0 keeps each session's work in its own backend.</summary>
    public int MaxParallelWorkersPerGather { get; init; }

    /// <summary>Folder under which the <c>probe-pg-RUNID</c> folder is created (default: the temp folder).</summary>
    public string? ParentFolder { get; init; }
}
