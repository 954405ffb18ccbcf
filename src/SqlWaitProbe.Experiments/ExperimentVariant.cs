namespace SqlWaitProbe.Experiments;

/// <summary>One variant: a name, the settings it runs with, and SQL run before and after its capture.</summary>
public sealed record ExperimentVariant
{
    /// <summary>The variant's name: its bundle's folder and its column in the comparison.</summary>
    public required string Name { get; init; }

    /// <summary>Line of the experiment file the variant starts on.</summary>
    public int Line { get; init; }

    /// <summary>The settings, in file order.</summary>
    public IReadOnlyList<SettingRequest> Settings { get; init; } = [];

    /// <summary>SQL run after the settings are applied, before the capture.</summary>
    public ExperimentScript? Before { get; init; }

    /// <summary>SQL run after the capture, before the settings are restored.</summary>
    public ExperimentScript? After { get; init; }

    /// <summary>The competing load of this variant (the experiment's unless the variant says otherwise); null for none.</summary>
    public ExperimentBackground? Background { get; init; }
}
