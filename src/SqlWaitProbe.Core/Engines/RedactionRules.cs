namespace SqlWaitProbe.Core.Engines;

/// <summary>
/// What redaction needs to know of an engine: words that are the engine's own (its process, system databases and
/// logins), which must never turn into placeholders, and the keys of its connection strings by what they name.
/// </summary>
public sealed record RedactionRules
{
    /// <summary>Words kept as they are, e.g. <c>postgres</c>, <c>tempdb</c>.</summary>
    public IReadOnlyList<string> OwnWords { get; init; } = [];

    /// <summary>Connection-string keys that name a host, e.g. <c>data source</c>.</summary>
    public IReadOnlyList<string> HostKeys { get; init; } = [];

    /// <summary>Keys that name a database, e.g. <c>initial catalog</c>.</summary>
    public IReadOnlyList<string> DatabaseKeys { get; init; } = [];

    /// <summary>Keys that name a login, e.g. <c>user id</c>.</summary>
    public IReadOnlyList<string> LoginKeys { get; init; } = [];

    /// <summary>Keys that name an application, e.g. <c>application name</c>.</summary>
    public IReadOnlyList<string> AppKeys { get; init; } = [];

    /// <summary>These rules and <paramref name="other"/>'s together.</summary>
    public RedactionRules Merge(RedactionRules other) => new()
    {
        OwnWords = [.. OwnWords.Concat(other.OwnWords).Distinct(StringComparer.OrdinalIgnoreCase)],
        HostKeys = [.. HostKeys.Concat(other.HostKeys).Distinct(StringComparer.OrdinalIgnoreCase)],
        DatabaseKeys = [.. DatabaseKeys.Concat(other.DatabaseKeys).Distinct(StringComparer.OrdinalIgnoreCase)],
        LoginKeys = [.. LoginKeys.Concat(other.LoginKeys).Distinct(StringComparer.OrdinalIgnoreCase)],
        AppKeys = [.. AppKeys.Concat(other.AppKeys).Distinct(StringComparer.OrdinalIgnoreCase)],
    };
}
