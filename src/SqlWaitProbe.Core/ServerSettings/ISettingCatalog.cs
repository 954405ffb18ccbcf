namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>
/// What an engine declares for experiments, without connecting: the settings it knows (names, levels), the statements
/// that read, apply and restore each one, and how its scripts split into batches. The dry run prints these statements
/// and the experiment sends the same ones, so what a dry run shows is what runs.
/// </summary>
public interface ISettingCatalog
{
    /// <summary>The engine (<c>postgres</c>, <c>sqlserver</c>).</summary>
    string Engine { get; }

    /// <summary>How settings are named, for an error about an unknown one.</summary>
    string NameHelp { get; }

    /// <summary>Known names, for "did you mean".</summary>
    IEnumerable<string> Names { get; }

    /// <summary>The setting written as <paramref name="name"/>, or null when the engine has none of that name.</summary>
    SettingDefinition? Find(string name);

    /// <summary>Why <paramref name="value"/> cannot be a value of <paramref name="setting"/>, or null when it can be (what can be told without a server).</summary>
    string? CheckValue(SettingDefinition setting, string value);

    /// <summary>The statements that read the setting (its value in effect and what restoring it needs).</summary>
    IReadOnlyList<string> ReadStatements(SettingDefinition setting);

    /// <summary>
    /// The statements that apply <paramref name="value"/>: sent once on the experiment's own connection, or for a
    /// <see cref="SettingLevel.Session"/> setting, run first on every workload session.
    /// </summary>
    IReadOnlyList<string> ApplyStatements(SettingDefinition setting, string value);

    /// <summary>The statements that put the setting back as <paramref name="before"/> found it; with null, as a dry run shows them (the value read before is named, not known).</summary>
    IReadOnlyList<string> RestoreStatements(SettingDefinition setting, SettingSnapshot? before);

    /// <summary>Splits a script as the engine's own client would.</summary>
    IReadOnlyList<ScriptBatch> Split(string script);

    /// <summary>What <see cref="Split"/> makes, counted in a dry run: <c>statement(s)</c>, or <c>batch(es)</c> where a separator line ends them.</summary>
    string BatchesAre => "statement(s)";

    /// <summary>One batch as a user would type it into the engine's own client again, its terminator or separator line included.</summary>
    string AsTyped(ScriptBatch batch) => batch.Text.TrimEnd() + ";";

    /// <summary>Syntax problems of a script found without a server (T-SQL through ScriptDom); empty when none or when the engine cannot tell.</summary>
    IReadOnlyList<ScriptProblem> Check(string script) => [];

    /// <summary>Whether the value in effect, <paramref name="effective"/>, is what <paramref name="requested"/> asks for (case and the engine's spellings of on and off aside).</summary>
    bool Matches(SettingDefinition setting, string requested, string effective) =>
        string.Equals(requested.Trim(), effective.Trim(), StringComparison.OrdinalIgnoreCase);

    /// <summary>The startup-only settings every variant records whether or not it asks for them (trace flag 834, the memory model).</summary>
    IReadOnlyList<string> AlwaysRecorded { get; }
}
