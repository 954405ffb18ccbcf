using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Options;

/// <summary>
/// The values of declared options as the user typed them, read by the module that declared each one. Reading a value
/// runs its declared check, so a bad value is one line and exit 2 wherever it is read first.
/// </summary>
public sealed class OptionValues
{
    private readonly Dictionary<IOptionSpec, object?> _values;

    /// <summary>Values by option; <paramref name="given"/> lists the options the user typed, in help order, with their tokens.</summary>
    public OptionValues(IReadOnlyDictionary<IOptionSpec, object?> values, IReadOnlyList<KeyValuePair<string, string>> given)
    {
        _values = new Dictionary<IOptionSpec, object?>(values);
        Given = given;
    }

    /// <summary>No option given: every value is its default.</summary>
    public static OptionValues None { get; } = new(new Dictionary<IOptionSpec, object?>(), []);

    /// <summary>
    /// Every option the user gave explicitly, by its long name (<c>--server</c>), with its tokens joined by commas
    /// (<c>true</c> for a flag), in help order.
    /// </summary>
    public IReadOnlyList<KeyValuePair<string, string>> Given { get; }

    /// <summary>Values set in code (<c>probe demo</c>, tests), each counted as given.</summary>
    public static OptionValues Of(params (IOptionSpec Option, object? Value)[] values)
    {
        // An option set to null is one not given: it keeps its default.
        var map = values.Where(v => v.Value is not null).ToDictionary(v => v.Option, v => v.Value);
        var given = values.Where(v => v.Value is not null and not false)
            .OrderBy(v => v.Option.HelpOrder)
            .Select(v => new KeyValuePair<string, string>(v.Option.Name, v.Value switch
            {
                true => "true",
                IEnumerable<string> many when v.Value is not string => string.Join(",", many),
                FileSystemInfo file => file.FullName,
                IFormattable f => f.ToString(null, System.Globalization.CultureInfo.InvariantCulture),
                _ => v.Value!.ToString() ?? "",
            }))
            .ToArray();
        return new OptionValues(map, given);
    }

    /// <summary>The value of <paramref name="option"/> (its default when not given), checked; throws <see cref="BadInputException"/>.</summary>
    public T Get<T>(OptionSpec<T> option)
    {
        ArgumentNullException.ThrowIfNull(option);
        var value = _values.TryGetValue(option, out var v) && v is T typed ? typed : _values.ContainsKey(option) && v is null ? default! : option.DefaultValue;
        if (option.Check?.Invoke(value) is { } error)
        {
            throw new BadInputException(error);
        }

        return value;
    }

    /// <summary>True when the user gave <paramref name="option"/> explicitly.</summary>
    public bool IsGiven(IOptionSpec option) => IsGiven(option.Name);

    /// <summary>True when the user gave the option named <paramref name="name"/> (a long name such as <c>--xe</c>) explicitly.</summary>
    public bool IsGiven(string name) => Given.Any(g => g.Key == name);

    /// <summary>
    /// The options as given, for the manifest, each value passed through <paramref name="redact"/> (option name, value)
    /// so secrets never reach the bundle.
    /// </summary>
    public Dictionary<string, string> AsGiven(Func<string, string, string> redact)
    {
        ArgumentNullException.ThrowIfNull(redact);
        var options = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (name, value) in Given)
        {
            options[name] = redact(name, value);
        }

        return options;
    }

    /// <summary>These values with <paramref name="option"/> set to <paramref name="value"/> (not counted as given).</summary>
    public OptionValues With<T>(OptionSpec<T> option, T value)
    {
        var map = new Dictionary<IOptionSpec, object?>(_values) { [option] = value };
        return new OptionValues(map, Given);
    }

    /// <summary>Reads <paramref name="option"/> only to run its check (throws <see cref="BadInputException"/>).</summary>
    public void Check(IOptionSpec option)
    {
        ArgumentNullException.ThrowIfNull(option);
        option.Accept(new Checker(this));
    }

    private sealed class Checker(OptionValues values) : IOptionSpecVisitor<bool>
    {
        public bool Visit<T>(OptionSpec<T> option)
        {
            values.Get(option);
            return true;
        }
    }
}
