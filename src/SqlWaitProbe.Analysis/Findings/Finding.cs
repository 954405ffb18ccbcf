namespace SqlWaitProbe.Analysis.Findings;

/// <summary>One conclusion of the analysis with the figures that support it and what to do about it.</summary>
/// <param name="Id">The rule's id, e.g. <c>waits-explain-little</c>.</param>
/// <param name="Severity"><c>critical</c>, <c>warning</c> or <c>info</c>.</param>
/// <param name="Title">One sentence a reader can act on.</param>
/// <param name="Evidence">Figures with their sources.</param>
/// <param name="DataQuality">True when it is about the capture's quality rather than the workload.</param>
public sealed record Finding(string Id, string Severity, string Title, IReadOnlyList<string> Evidence, bool DataQuality = false)
{
    /// <summary>The phase the finding is about, or null when it is about the whole capture or comparison.</summary>
    public string? Phase { get; init; }

    /// <summary>What to do, or what to capture next, in one sentence.</summary>
    public string Next { get; init; } = "";

    /// <summary>Sort key: critical first.</summary>
    public int Rank => Severity switch { Severities.Critical => 0, Severities.Warning => 1, _ => 2 };
}
