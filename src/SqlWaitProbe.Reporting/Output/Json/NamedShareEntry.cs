namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>A named function (<c>module!symbol</c>) and its share of the process's samples, its callees included.</summary>
public sealed record NamedShareEntry(string Function, double Share);
