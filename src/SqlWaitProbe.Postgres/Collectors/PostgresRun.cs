using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Postgres.Attach;

namespace SqlWaitProbe.Postgres.Collectors;

/// <summary>What the PostgreSQL collectors of a capture work with once the server is prepared.</summary>
/// <param name="Connection">The server's connection string (the probe's own application name).</param>
/// <param name="HasWaitSampling">True when <c>pg_wait_sampling</c> is installed, so waits are read from its profile.</param>
/// <param name="HasQueryIdColumn">True when <c>pg_stat_activity</c> has <c>query_id</c>, so samples carry their statement.</param>
/// <param name="Attach">In attach mode, which backends to follow as they come and go; null for a workload capture.</param>
public sealed record PostgresRun(string Connection, bool HasWaitSampling, bool HasQueryIdColumn, PostgresSessionFilter? Attach = null)
{
    /// <summary>True when <c>pg_stat_statements</c> is loaded and created, so statements have counters.</summary>
    public bool HasStatementStats { get; init; }

    /// <summary>True when <c>pg_stat_statements</c> is loaded, created in the database or not.</summary>
    public bool StatementStatsLoaded { get; init; }

    /// <summary>The server's <c>server_version_num</c>.</summary>
    public int VersionNumber { get; init; }

    /// <summary>The workload of a workload run; null in attach mode.</summary>
    public WorkloadDefinition? Workload { get; init; }

    /// <summary>Attach mode: plain EXPLAIN of the watched sessions' top statements after the window (<c>--explain</c>).</summary>
    public bool Explain { get; init; }

    /// <summary>auto_explain's settings on the server (<see cref="Statements.PgAutoExplainModule.Describe"/>), or null when it is not loaded.</summary>
    public string? AutoExplain { get; init; }
}
