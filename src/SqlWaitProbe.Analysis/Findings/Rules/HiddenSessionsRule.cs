namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>sessions-hidden</c>: the monitoring role could not see some of the matching sessions (PostgreSQL: other roles'
/// backends without <c>pg_read_all_stats</c>), so they were not watched. Named, never silently left out.
/// </summary>
public sealed class HiddenSessionsRule : CaptureRule
{
    /// <summary>The manifest option the capture records the hidden backends' pids in.</summary>
    public const string HiddenPidsOption = "attach.hidden_pids";

    /// <summary>The manifest option the engine records its statement in that lets the capture's own role see them.</summary>
    public const string FixOption = "attach.hidden_fix";

    /// <inheritdoc/>
    public override string Id => "sessions-hidden";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        if (!analysis.Manifest.Options.TryGetValue(HiddenPidsOption, out var pids) || pids.Length == 0)
        {
            yield break;
        }

        var count = pids.Split(',', StringSplitOptions.RemoveEmptyEntries).Length;
        yield return Create(Severities.Warning, analysis.Ledgers.FirstOrDefault()?.Phase,
            $"{count} matching session(s) of other roles were hidden from the monitoring role and not watched (backend pids {pids})",
            [$"pg_stat_activity showed them without state or waits: the role lacks pg_read_all_stats [manifest.json options {HiddenPidsOption}]"],
            $"{(analysis.Manifest.Options.TryGetValue(FixOption, out var fix) && fix.Length > 0 ? fix.TrimEnd(';') : "GRANT pg_monitor TO the monitoring role")} (or connect as a role that has it) and capture again to watch them too",
            dataQuality: true);
    }
}
