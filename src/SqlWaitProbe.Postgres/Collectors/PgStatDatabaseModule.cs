using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Postgres.Collectors;

/// <summary><c>pg_stat_database</c> every second as <c>pg.*</c> series (the runner's <c>series.csv</c>).</summary>
public sealed class PgStatDatabaseModule : IEngineCollectorModule<PostgresRun>
{
    /// <inheritdoc />
    public string Name => "pg-stat-database";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(PostgresRun run) => true;

    /// <inheritdoc />
    public ICollector Create(PostgresRun run, PhaseContext phase) => new PgStatDatabaseCollector(run.Connection) { QuietAutoExplain = run.AutoExplain is not null };
}
