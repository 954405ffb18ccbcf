namespace SqlWaitProbe.Analysis.Findings;

/// <summary>
/// Picks each phase's verdict from the findings: the most severe finding about the workload in that phase (findings
/// about the capture's own quality say how far to trust it, not what limits the workload).
/// </summary>
public static class PhaseVerdicts
{
    /// <summary>One verdict per phase of <paramref name="analysis"/>, in the order the phases ran.</summary>
    public static IReadOnlyList<PhaseVerdict> Of(AnalysisResult analysis)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        return analysis.Ledgers.Select(l =>
        {
            // Findings are ordered most severe first, so the first one about this phase is the verdict.
            var f = analysis.Findings.FirstOrDefault(f => !f.DataQuality && f.Phase == l.Phase);
            return f is not null
                ? new PhaseVerdict(l.Phase, f.Severity, f.Title, f.Next, f.Id)
                : new PhaseVerdict(l.Phase, Severities.Info, $"In {l.Phase}, no rule fired: {l.Headline}",
                    "nothing limits this phase beyond what the ledger shows; a run at more sessions (--threads) shows where scaling stops", null);
        }).ToArray();
    }
}
