using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Postgres.Collectors;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// <c>--explain</c> in attach mode: a plain EXPLAIN of the watched sessions' top statements once the window closes,
/// written beside the workload plans (<c>statements/plans/</c>). Never ANALYZE: nothing of the user's runs.
/// </summary>
public sealed class PgExplainModule : IEngineCollectorModule<PostgresRun>
{
    /// <summary><c>--explain</c>.</summary>
    public static readonly OptionSpec<bool> Explain = new("--explain")
    {
        Help = "Attach mode (postgres): after the window, a plain EXPLAIN (no ANALYZE: nothing runs) of the sessions' top statements, in a read-only transaction.",
        HelpOrder = 175,
    };

    /// <inheritdoc />
    public string Name => "pg-explain";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [Explain];

    /// <inheritdoc />
    public bool Runs(PostgresRun run) => run.Attach is not null && run.Explain;

    /// <inheritdoc />
    public ICollector Create(PostgresRun run, PhaseContext phase) => new PgExplainCollector(run.Connection, run.Attach?.Database);
}
