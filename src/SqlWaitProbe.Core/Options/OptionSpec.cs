namespace SqlWaitProbe.Core.Options;

/// <summary>An option whose value is a <typeparamref name="T"/>.</summary>
/// <typeparam name="T">What the parser reads: <c>string?</c>, <c>int</c>, <c>bool</c>, <c>string[]</c>, <c>FileInfo?</c>…</typeparam>
public sealed class OptionSpec<T> : IOptionSpec
{
    /// <summary>Declares <paramref name="name"/> with its short <paramref name="aliases"/>.</summary>
    public OptionSpec(string name, params string[] aliases)
    {
        Name = name;
        Aliases = aliases;
    }

    /// <inheritdoc />
    public string Name { get; }

    /// <inheritdoc />
    public IReadOnlyList<string> Aliases { get; }

    /// <inheritdoc />
    public required string Help { get; init; }

    /// <inheritdoc />
    public required int HelpOrder { get; init; }

    /// <summary>The value when the option is not given; null keeps <c>default(T)</c> and shows no default in help.</summary>
    public Func<T>? Default { get; init; }

    /// <summary>
    /// The input error of a value, in one line (exit 2), or null when it is valid. It runs when the value is read, so
    /// errors come in the order the capture reads its options.
    /// </summary>
    public Func<T, string?>? Check { get; init; }

    /// <summary>One token may carry several values (<c>--xe pages latches</c>).</summary>
    public bool AllowMultipleArgumentsPerToken { get; init; }

    /// <summary>The value's name in help, e.g. <c>name</c> for <c>--workload &lt;name&gt;</c>; null for the option's own.</summary>
    public string? HelpName { get; init; }

    /// <inheritdoc />
    public Func<IEnumerable<string>>? Completions { get; init; }

    /// <inheritdoc />
    public Type ValueType => typeof(T);

    /// <inheritdoc />
    public bool HasDefault => Default is not null;

    /// <summary>The value when not given.</summary>
    public T DefaultValue => Default is null ? default! : Default();

    /// <inheritdoc />
    public TResult Accept<TResult>(IOptionSpecVisitor<TResult> visitor) => visitor.Visit(this);

    /// <inheritdoc />
    public override string ToString() => Name;
}
