namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One finding: the rule's id, severity, title, evidence, the next step, and the phase it is about (null for the whole capture).</summary>
public sealed record FindingEntry(string Id, string Severity, string? Phase, string Title, IReadOnlyList<string> Evidence, string Next, bool DataQuality);
