namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>A setting an engine knows how to read, apply, read back and restore.</summary>
/// <param name="Name">Its name as an experiment file writes it, in the engine's own spelling.</param>
/// <param name="Level">How it takes effect.</param>
/// <param name="Family">What kind of setting it is, for messages (<c>GUC</c>, <c>sp_configure option</c>…).</param>
public sealed record SettingDefinition(string Name, SettingLevel Level, string Family)
{
    /// <summary>Why an experiment cannot change it (it cannot be read back or restored exactly); null when it can.</summary>
    public string? Refusal { get; init; }

    /// <summary>Settings that must hold their values while this one is changed (e.g. <c>show advanced options</c>), applied first and restored last.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Implies { get; init; } = [];
}
