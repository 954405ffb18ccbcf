using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Postgres.Collectors;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// The workload statement's <c>EXPLAIN ANALYZE</c> after each phase of a workload run. Attach mode never runs a
/// user's statement, so it never gets this collector.
/// </summary>
public sealed class PgPlanModule : IEngineCollectorModule<PostgresRun>
{
    /// <inheritdoc />
    public string Name => "pg-plan";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(PostgresRun run) => run.Attach is null && run.Workload is not null;

    /// <inheritdoc />
    public ICollector Create(PostgresRun run, PhaseContext phase) => new PgPlanCollector(run.Connection, run.Workload!);
}
