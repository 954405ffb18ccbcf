namespace SqlWaitProbe.Experiments.Files;

/// <summary>A node of an experiment file, with the line and column it starts at (1-based), for one-line errors.</summary>
public abstract record YamlNode(int Line, int Column)
{
    /// <summary>What the node is, for an error message: a value, a list or a map.</summary>
    public abstract string Kind { get; }
}
