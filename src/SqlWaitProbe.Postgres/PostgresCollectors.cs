using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Postgres.Collectors;

namespace SqlWaitProbe.Postgres;

/// <summary>The collectors of a PostgreSQL capture, in start order. A new one is registered here with one line.</summary>
public static class PostgresCollectors
{
    /// <summary>The catalog.</summary>
    public static IReadOnlyList<IEngineCollectorModule<PostgresRun>> All { get; } =
    [
        new PgWaitsModule(),
        new PgStatDatabaseModule(),
        new Statements.PgStatementsModule(),
        new Statements.PgPlanModule(),
        new Statements.PgAutoExplainModule(),
        new Statements.PgExplainModule(),
    ];
}
