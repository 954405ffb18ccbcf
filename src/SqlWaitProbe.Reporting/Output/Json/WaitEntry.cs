namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One wait type's seconds in a ledger.</summary>
public sealed record WaitEntry(string Type, double Seconds, double SignalSeconds, string Source);
