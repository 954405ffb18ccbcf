namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One phase's verdict: what limits it, in one sentence, the next step, and the finding it rests on (null when no rule fired).</summary>
public sealed record VerdictEntry(string Phase, string Verdict, string Next, string? FindingId);
