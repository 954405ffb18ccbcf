namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One call path, root → module, with its weight and share of the process's samples.</summary>
public sealed record CallPathEntry(IReadOnlyList<string> Frames, long Weight, double Share);
