namespace SqlWaitProbe.Analysis.Correlation;

/// <summary>A strong correlation between kernel CPU and another per-second series.</summary>
/// <param name="Phase">Phase name.</param>
/// <param name="KernelSeries">Which kernel CPU series was used.</param>
/// <param name="Series">The other series.</param>
/// <param name="R">Pearson's r.</param>
/// <param name="Points">Seconds both series have.</param>
public sealed record SeriesCorrelationResult(string Phase, string KernelSeries, string Series, double R, int Points);
