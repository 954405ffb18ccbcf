namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>
/// One call path, root → module, with its weight and share of the process's samples, its deepest named frame and the
/// named functions its entry into the module calls first.
/// </summary>
public sealed record CallPathEntry(IReadOnlyList<string> Frames, long Weight, double Share, string? NamedAs, IReadOnlyList<NamedShareEntry> Inside);
