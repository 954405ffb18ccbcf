namespace SqlWaitProbe.Experiments.Files;

/// <summary>A map of keys to nodes, in file order; a key appears once (the reader refuses duplicates).</summary>
public sealed record YamlMap(IReadOnlyList<KeyValuePair<YamlScalar, YamlNode>> Entries, int Line, int Column) : YamlNode(Line, Column)
{
    /// <inheritdoc />
    public override string Kind => "a map";

    /// <summary>The entry under <paramref name="key"/>, or null.</summary>
    public YamlNode? this[string key] => Entries.FirstOrDefault(e => e.Key.Value == key).Value;

    /// <summary>The key node of <paramref name="key"/>, or null.</summary>
    public YamlScalar? KeyOf(string key) => Entries.FirstOrDefault(e => e.Key.Value == key).Key;
}
