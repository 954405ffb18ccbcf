namespace SqlWaitProbe.Experiments.Files;

/// <summary>A list.</summary>
public sealed record YamlSequence(IReadOnlyList<YamlNode> Items, int Line, int Column) : YamlNode(Line, Column)
{
    /// <inheritdoc />
    public override string Kind => "a list";
}
