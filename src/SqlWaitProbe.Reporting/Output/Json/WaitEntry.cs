namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One wait type in a ledger; <paramref name="Class"/> is <c>resource</c>, <c>idle</c>, <c>intended</c> or <c>client</c>.</summary>
public sealed record WaitEntry(string Type, double Seconds, double SignalSeconds, string Source, string Class);
