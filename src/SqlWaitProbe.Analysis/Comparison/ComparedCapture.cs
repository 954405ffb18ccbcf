namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>One capture of a comparison: its column label, where it came from, and its analysis.</summary>
/// <param name="Label">Column label (from --label, else from what differs between the captures).</param>
/// <param name="Source">The bundle's folder or .zip name as given.</param>
/// <param name="Analysis">The capture's analysis, as <c>probe analyze</c> computes it.</param>
public sealed record ComparedCapture(string Label, string Source, AnalysisResult Analysis);
