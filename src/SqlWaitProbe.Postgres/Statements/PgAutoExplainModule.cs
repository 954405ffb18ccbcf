using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Postgres.Collectors;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// Attach mode's plans from the server's own <c>auto_explain</c>: when the server has it loaded, the plans it wrote to
/// the server's log during the window become the watched statements' plan files (<see cref="PgAutoExplainCollector"/>).
/// Attach is read-only and never loads a module or changes a setting: without auto_explain, Data quality says how to
/// get the statements' plans. With <c>--explain</c> too, a statement auto_explain logged keeps that plan.
/// </summary>
public sealed class PgAutoExplainModule : IEngineCollectorModule<PostgresRun>
{
    /// <inheritdoc />
    public string Name => "pg-auto-explain";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(PostgresRun run) => run.Attach is not null && (run.AutoExplain is not null || !run.Explain);

    /// <inheritdoc />
    public ICollector Create(PostgresRun run, PhaseContext phase) => run.AutoExplain is { } described
        ? new PgAutoExplainCollector(run.Connection, described)
        : new NotRunCollector(Name, CollectorStatus.Skipped, NotLoaded);

    /// <summary>What Data quality says about plans in attach mode when the server has no auto_explain.</summary>
    public const string NotLoaded =
        "no plans of the watched statements: auto_explain is not loaded on the server and attach mode never changes server settings; "
        + "to have them, load it on the server (shared_preload_libraries or session_preload_libraries = 'auto_explain', with auto_explain.log_min_duration, "
        + "auto_explain.log_format = json and auto_explain.log_analyze = on, logging_collector = on) and attach reads the plans it logs, "
        + "or capture again with --explain for plain EXPLAIN plans (planning only, read-only)";

    /// <summary>
    /// auto_explain's settings as the server's non-default settings show them, or null when it is not loaded: named in a
    /// preload list, or any <c>auto_explain.*</c> setting configured.
    /// </summary>
    public static string? Describe(IReadOnlyDictionary<string, string> settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var preloaded = settings.Where(s => s.Key is "shared_preload_libraries" or "session_preload_libraries" && s.Value.Contains("auto_explain", StringComparison.Ordinal)).Select(s => s.Key).ToList();
        var own = settings.Where(s => s.Key.StartsWith("auto_explain.", StringComparison.Ordinal)).OrderBy(s => s.Key, StringComparer.Ordinal).Select(s => $"{s.Key} = {s.Value}").ToList();
        if (preloaded.Count == 0 && own.Count == 0)
        {
            return null;
        }

        return string.Join(", ", preloaded.Select(p => "in " + p).Concat(own));
    }
}
