using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.SqlServer.Statements;

/// <summary>
/// Which statement, on SQL Server (<see cref="SqlStatementsCollector"/>): the engine-neutral statement files
/// (<c>activity.csv</c>, <c>statements/*</c>) that the analysis's statement reader turns into each statement's ledger,
/// counters, plan notes and head blockers, in workload runs and attach mode alike.
/// </summary>
public sealed class SqlStatementsModule : IEngineCollectorModule<SqlServerRun>
{
    /// <inheritdoc />
    public string Name => "sql-statements";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(SqlServerRun run) => true;

    /// <inheritdoc />
    public ICollector Create(SqlServerRun run, PhaseContext phase)
    {
        ArgumentNullException.ThrowIfNull(run);
        var server = run.Server ?? throw new InvalidOperationException("the server is read before collectors are made");
        return new SqlStatementsCollector(run.OpenAsync, run.FilterFor, server.MajorVersion, server.ProductVersion, run.Settings.Attach ? run.Settings.FilterDatabase : run.WorkloadDatabase);
    }
}
