namespace SqlWaitProbe.Experiments.Files;

/// <summary>A single value (text, number or flag, as written).</summary>
/// <param name="Value">The text of the value.</param>
/// <param name="IsBlock">True for a literal or folded block (<c>|</c>, <c>&gt;</c>), whose text starts on the next line.</param>
/// <param name="IsPlain">True when written without quotes (so <c>null</c> or <c>~</c> mean no value).</param>
public sealed record YamlScalar(string Value, bool IsBlock, bool IsPlain, int Line, int Column) : YamlNode(Line, Column)
{
    /// <inheritdoc />
    public override string Kind => "a value";

    /// <summary>The line the value's text starts on: a block's text begins below its indicator.</summary>
    public int TextLine => IsBlock ? Line + 1 : Line;

    /// <summary>True for an empty plain value, <c>null</c> or <c>~</c>.</summary>
    public bool IsNull => IsPlain && Value is "" or "null" or "Null" or "NULL" or "~";
}
