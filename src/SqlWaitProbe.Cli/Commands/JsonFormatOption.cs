using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>--format text|json</c> option of every command whose result a script may read.</summary>
internal static class JsonFormatOption
{
    /// <summary>A new <c>--format</c> option, <c>text</c> by default; <paramref name="description"/> says what the JSON holds.</summary>
    public static Option<string> Create(string description)
    {
        var format = new Option<string>("--format") { Description = description, DefaultValueFactory = _ => "text" };
        format.AcceptOnlyFromAmong("text", "json");
        return format;
    }
}
