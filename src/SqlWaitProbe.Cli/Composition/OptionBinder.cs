using System.CommandLine;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>
/// Turns declared options into the command line's own and reads them back as <see cref="OptionValues"/>: the one place
/// where a declaration becomes a System.CommandLine option, so a module's new option needs nothing here.
/// </summary>
internal sealed class OptionBinder
{
    private readonly List<(IOptionSpec Spec, Option Option)> _options = [];

    /// <summary>Binds <paramref name="specs"/>, each name once (the first declaration wins), in help order.</summary>
    public OptionBinder(IEnumerable<IOptionSpec> specs)
    {
        foreach (var spec in specs.DistinctBy(s => s.Name, StringComparer.Ordinal).OrderBy(s => s.HelpOrder))
        {
            _options.Add((spec, spec.Accept(new Builder())));
        }
    }

    /// <summary>The command-line options, in help order.</summary>
    public IEnumerable<Option> Options => _options.Select(o => o.Option);

    /// <summary>The values of <paramref name="parse"/>: every bound option, and which ones the user typed, with their tokens.</summary>
    public OptionValues Read(ParseResult parse)
    {
        var values = new Dictionary<IOptionSpec, object?>();
        var given = new List<KeyValuePair<string, string>>();
        foreach (var (spec, option) in _options)
        {
            values[spec] = spec.Accept(new Reader(parse, option));
            if (parse.GetResult(option) is { Implicit: false } result)
            {
                given.Add(new(option.Name, result.Tokens.Count == 0 ? "true" : string.Join(",", result.Tokens.Select(t => t.Value))));
            }
        }

        return new OptionValues(values, given);
    }

    private sealed class Builder : IOptionSpecVisitor<Option>
    {
        public Option Visit<T>(OptionSpec<T> spec)
        {
            var option = new Option<T>(spec.Name, [.. spec.Aliases])
            {
                Description = spec.Help,
                AllowMultipleArgumentsPerToken = spec.AllowMultipleArgumentsPerToken,
            };
            if (spec.Default is { } value)
            {
                option.DefaultValueFactory = _ => value();
            }

            if (spec.HelpName is { } name)
            {
                option.HelpName = name;
            }

            return option;
        }
    }

    private sealed class Reader(ParseResult parse, Option option) : IOptionSpecVisitor<object?>
    {
        public object? Visit<T>(OptionSpec<T> spec) => parse.GetValue((Option<T>)option);
    }
}
