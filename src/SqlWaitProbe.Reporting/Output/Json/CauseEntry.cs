namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One part of a ledger's unaccounted time, in seconds.</summary>
public sealed record CauseEntry(string Cause, double Seconds, string Source);
