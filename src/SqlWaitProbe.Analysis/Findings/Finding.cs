namespace SqlWaitProbe.Analysis.Findings;

/// <summary>One conclusion of the analysis with the figures that support it.</summary>
/// <param name="Id">Stable rule id, e.g. <c>waits-explain-little</c>.</param>
/// <param name="Severity"><c>critical</c>, <c>warning</c> or <c>info</c>.</param>
/// <param name="Title">One sentence a reader can act on.</param>
/// <param name="Evidence">Figures with their sources.</param>
/// <param name="DataQuality">True when it is about the capture's quality rather than the workload.</param>
public sealed record Finding(string Id, string Severity, string Title, IReadOnlyList<string> Evidence, bool DataQuality = false)
{
    /// <summary>Sort key: critical first.</summary>
    public int Rank => Severity switch { Severities.Critical => 0, Severities.Warning => 1, _ => 2 };
}
