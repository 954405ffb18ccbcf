using System.Globalization;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>kernel-cpu-correlation</c>: the server's kernel CPU moves with another per-second series.</summary>
public sealed class KernelCpuCorrelationRule : CaptureRule
{
    /// <summary>How many of the strongest correlations become findings.</summary>
    public const int Strongest = 3;

    /// <inheritdoc/>
    public override string Id => "kernel-cpu-correlation";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis) =>
        analysis.Correlations.Take(Strongest).Select(c => Create(Severities.Info, c.Phase,
            $"Kernel CPU in {c.Phase} moves with {c.Series} (r = {c.R.ToString("0.00", CultureInfo.InvariantCulture)})",
            [$"Pearson r = {c.R.ToString("0.000", CultureInfo.InvariantCulture)} over {c.Points} seconds between {c.KernelSeries} and {c.Series} [series.csv, cpu/timeline.csv]"],
            $"read both series over time in the charts of {c.Phase}: what drives {c.Series} is a lead to the kernel time"));
}
