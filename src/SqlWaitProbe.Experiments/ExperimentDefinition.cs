namespace SqlWaitProbe.Experiments;

/// <summary>An experiment file, read and checked: where it runs, what it sets up, the fixed work, and the variants.</summary>
public sealed record ExperimentDefinition
{
    /// <summary>The file as the user named it (for messages).</summary>
    public required string File { get; init; }

    /// <summary><c>postgres</c> or <c>sqlserver</c>.</summary>
    public required string Engine { get; init; }

    /// <summary>The server (a connection string or a SQL Server name); null: the embedded PostgreSQL.</summary>
    public string? Server { get; init; }

    /// <summary>The database the work runs in.</summary>
    public string? Database { get; init; }

    /// <summary>SQL login or PostgreSQL role.</summary>
    public string? User { get; init; }

    /// <summary>The environment variable that holds the password.</summary>
    public string? PasswordEnv { get; init; }

    /// <summary>SQL Server: require an encrypted connection (as <c>--encrypt</c>).</summary>
    public bool Encrypt { get; init; }

    /// <summary>SQL Server: trust the server's certificate without validation (as <c>--trust-server-certificate</c>; test servers only).</summary>
    public bool TrustServerCertificate { get; init; }

    /// <summary>Run once before every variant.</summary>
    public ExperimentScript? Setup { get; init; }

    /// <summary>Run once at the end, also after a failure or Ctrl+C.</summary>
    public ExperimentScript? Teardown { get; init; }

    /// <summary>The measured work.</summary>
    public required ExperimentWorkload Workload { get; init; }

    /// <summary>Data size of a built-in workload (its <c>--scale</c>).</summary>
    public double? Scale { get; init; }

    /// <summary>Sessions of each phase: one phase per count.</summary>
    public required IReadOnlyList<int> Threads { get; init; }

    /// <summary>How long each phase runs; null when a fixed number of executions is asked for.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>Executions per session in each phase.</summary>
    public long? IterationsPerSession { get; init; }

    /// <summary>Executions in each phase, shared by its sessions (each takes the next until none is left).</summary>
    public long? IterationsTotal { get; init; }

    /// <summary>Executions run on one session before each variant's first phase, not measured.</summary>
    public long? WarmupExecutions { get; init; }

    /// <summary>Time run on one session before each variant's first phase, not measured.</summary>
    public TimeSpan? WarmupDuration { get; init; }

    /// <summary>A 1-session baseline phase first in every variant.</summary>
    public bool Baseline { get; init; }

    /// <summary>The variants, in run order (at least one).</summary>
    public required IReadOnlyList<ExperimentVariant> Variants { get; init; }
}
