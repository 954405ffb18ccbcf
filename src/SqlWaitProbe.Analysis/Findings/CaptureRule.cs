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
            if (EvaluatePhase(ledger, input) is { } f)
            {
                yield return f;
            }
        }
    }

    /// <summary>Findings about the capture as a whole.</summary>
    protected virtual IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis) => [];

    /// <summary>The finding about one phase, or null.</summary>
    protected virtual Finding? EvaluatePhase(PhaseLedger phase, AnalysisResult analysis) => null;

    /// <summary>The server process's name for prose, e.g. <c>postgres</c>.</summary>
    protected static string ProcessName(AnalysisResult a) => a.Manifest.ServerProcess.Length > 0 ? a.Manifest.ServerProcess : "the database process's";
}
