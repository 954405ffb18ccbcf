using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The input argument every <c>probe stacks</c> verb takes, described once.</summary>
internal static class StacksArguments
{
    /// <summary>What every stack verb reads, said the same way in each command's help.</summary>
    public const string InputDescription = "perf script output (plain or .gz), folded stacks or a speedscope JSON file; - reads standard input";

    /// <summary>A new <c>input</c> argument.</summary>
    public static Argument<string> Input(string name = "input", string? description = null) => new(name) { Description = description ?? InputDescription };

    /// <summary>A new <c>--force</c> option: without it, a verb that writes a file refuses to replace one that exists.</summary>
    public static Option<bool> Force() => new("--force") { Description = "Overwrite the output file if it exists" };
}
