namespace SqlWaitProbe.Analysis.Findings;

/// <summary>One phase's verdict for the first screen: what limits it, in one sentence, and the next step.</summary>
/// <param name="Phase">The phase.</param>
/// <param name="Severity">The severity of the finding it rests on; <c>info</c> when no rule fired.</param>
/// <param name="Text">The verdict: the finding's title, or what was measured when no rule fired.</param>
/// <param name="Next">What to do, or what to capture next.</param>
/// <param name="FindingId">The id of the finding it rests on, or null when no rule fired.</param>
public sealed record PhaseVerdict(string Phase, string Severity, string Text, string Next, string? FindingId);
