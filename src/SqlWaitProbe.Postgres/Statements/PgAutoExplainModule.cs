using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Postgres.Collectors;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// Attach mode's plans without <c>--explain</c>: they exist only where the server's own <c>auto_explain</c> writes them
/// into its log. Attach is read-only and never loads a module or changes a setting, so this records, for Data quality,
/// whether the server has auto_explain and how to get the watched statements' plans.
/// </summary>
public sealed class PgAutoExplainModule : IEngineCollectorModule<PostgresRun>
{
    /// <inheritdoc />
    public string Name => "pg-auto-explain";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(PostgresRun run) => run.Attach is not null && !run.Explain;

    /// <inheritdoc />
    public ICollector Create(PostgresRun run, PhaseContext phase) => new NotRunCollector(Name, CollectorStatus.Skipped, Reason(run.AutoExplain));

    /// <summary>What Data quality says about plans in attach mode, given the server's auto_explain settings (null: not loaded).</summary>
    public static string Reason(string? autoExplain) => autoExplain is null
        ? "no plans of the watched statements: auto_explain is not loaded on the server and attach mode never changes server settings; "
          + "to have them, load it on the server (shared_preload_libraries or session_preload_libraries = 'auto_explain', with auto_explain.log_min_duration and auto_explain.log_format = json), "
          + "or capture again with --explain for plain EXPLAIN plans (planning only, read-only)"
        : $"auto_explain is loaded on the server ({autoExplain}) and writes the plans of slow statements to the server's log (pg_current_logfile()); "
          + "the probe does not read the server's log, so the report has no plans of the watched statements: read them there, or capture again with --explain for plain EXPLAIN plans";

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
