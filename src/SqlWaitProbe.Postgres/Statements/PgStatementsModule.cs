using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Postgres.Collectors;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// Each statement's <c>pg_stat_statements</c> counters over the phase (<c>statements/statements.csv</c>). The file is
/// engine-neutral and read with the sampled activity by the analysis's statement reader; without the extension the
/// collector is recorded as skipped, so Data quality says why statements have no counters.
/// </summary>
public sealed class PgStatementsModule : IEngineCollectorModule<PostgresRun>
{
    /// <inheritdoc />
    public string Name => "pg-statements";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(PostgresRun run) => true;

    /// <inheritdoc />
    public ICollector Create(PostgresRun run, PhaseContext phase) => run.HasStatementStats
        ? new PgStatementsCollector(run.Connection, run.VersionNumber) { QuietAutoExplain = run.AutoExplain is not null }
        : new NotRunCollector(Name, CollectorStatus.Skipped, run.StatementStatsLoaded
            ? "pg_stat_statements is loaded but not created in the database the probe connects to: statements are known by the sampled sessions' texts and query ids only, without their counters; CREATE EXTENSION pg_stat_statements; in that database gives them (the probe creates nothing on a server it attaches to)"
            : "pg_stat_statements is not in shared_preload_libraries (or the role may not read that setting: pg_monitor grants it): statements are known by the sampled sessions' texts and query ids only, without their counters");
}
