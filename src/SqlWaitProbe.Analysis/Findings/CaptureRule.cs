using SqlWaitProbe.Analysis.Ledger;

namespace SqlWaitProbe.Analysis.Findings;

/// <summary>
/// A rule over one capture's analysis. A rule about the whole capture overrides <see cref="EvaluateCapture"/>; a rule
/// asked of each phase in turn overrides <see cref="EvaluatePhase"/>.
/// </summary>
public abstract class CaptureRule : FindingRule<AnalysisResult>
{
    /// <inheritdoc/>
    public sealed override IEnumerable<Finding> Evaluate(AnalysisResult input)
    {
        ArgumentNullException.ThrowIfNull(input);
        foreach (var f in EvaluateCapture(input))
        {
            yield return f;
        }

        foreach (var ledger in input.Ledgers)
        {
            if (JudgesSessionTime && !HasSessionTimeToJudge(ledger))
            {
                continue;
            }

            if (EvaluatePhase(ledger, input) is { } f)
            {
                yield return f;
            }
        }
    }

    /// <summary>
    /// Session time below which a phase's shares are noise, s: an attach window a signal cut at its start, or sessions
    /// that ran statements for a few milliseconds, would give "107% of their time runnable" from a few /proc ticks.
    /// </summary>
    public const double MinSessionSeconds = 0.1;

    /// <summary>True for a rule whose finding is a share of the phase's session time: it is not asked of a phase with too little of it.</summary>
    protected virtual bool JudgesSessionTime => false;

    /// <summary>Whether <paramref name="phase"/> holds enough session time for its shares to mean anything.</summary>
    public static bool HasSessionTimeToJudge(PhaseLedger phase) => phase.SessionSeconds >= MinSessionSeconds;

    /// <summary>Findings about the capture as a whole.</summary>
    protected virtual IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis) => [];

    /// <summary>The finding about one phase, or null.</summary>
    protected virtual Finding? EvaluatePhase(PhaseLedger phase, AnalysisResult analysis) => null;

    /// <summary>The server process's name for prose, e.g. <c>postgres</c>.</summary>
    protected static string ProcessName(AnalysisResult a) => a.Manifest.ServerProcess.Length > 0 ? a.Manifest.ServerProcess : "the database process's";
}
