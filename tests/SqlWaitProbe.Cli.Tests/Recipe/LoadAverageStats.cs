namespace SqlWaitProbe.Cli.Tests.Recipe;

/// <summary>What the analysis keeps of a phase's load average.</summary>
/// <param name="Readings">Readings in the file.</param>
/// <param name="MeanLoad1">Mean 1-minute load (tasks).</param>
/// <param name="MaxLoad1">Highest 1-minute load (tasks).</param>
internal sealed record LoadAverageStats(int Readings, double MeanLoad1, double MaxLoad1);
