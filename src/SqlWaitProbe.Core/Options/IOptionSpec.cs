namespace SqlWaitProbe.Core.Options;

/// <summary>
/// One command-line option, declared once where it is used (name, type, default, help, validation); the command line
/// builds its parser from these and hands the values back as <see cref="OptionValues"/>. Modules (an engine, a
/// collector) declare their own, so a new one needs no edit of the command line.
/// </summary>
public interface IOptionSpec
{
    /// <summary>The long name, e.g. <c>--sample-hz</c>.</summary>
    string Name { get; }

    /// <summary>Short names, e.g. <c>-t</c>.</summary>
    IReadOnlyList<string> Aliases { get; }

    /// <summary>The help text.</summary>
    string Help { get; }

    /// <summary>
    /// Where the option appears in help and in the manifest's options: lower first. Declarations live in several
    /// projects, so the order is a number each carries rather than the order of one list.
    /// </summary>
    int HelpOrder { get; }

    /// <summary>The value type the parser reads (<c>string</c>, <c>int</c>, <c>bool</c> for a flag…).</summary>
    Type ValueType { get; }

    /// <summary>True when the option has a default the help shows.</summary>
    bool HasDefault { get; }

    /// <summary>The values tab completion offers, or null.</summary>
    Func<IEnumerable<string>>? Completions { get; }

    /// <summary>Calls the visitor with the option's value type.</summary>
    TResult Accept<TResult>(IOptionSpecVisitor<TResult> visitor);
}
