using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The input argument every <c>probe stacks</c> verb takes, described once.</summary>
internal static class StacksArguments
{
    /// <summary>What every stack verb reads, said the same way in each command's help.</summary>
    public const string InputDescription = "perf script output (plain or .gz), folded stacks, a speedscope JSON file or a Windows trace (.etl, PerfView's .etl.zip); - reads standard input";

    /// <summary>A new <c>input</c> argument.</summary>
    public static Argument<string> Input(string name = "input", string? description = null) => new(name) { Description = description ?? InputDescription };

    /// <summary>A new <c>--process</c> option: only one process's stacks.</summary>
    public static Option<string?> Process() => new("--process") { Description = "Only this process: its name as the input gives it (e.g. postgres, sqlservr), or for a Windows trace also its process id" };

    /// <summary>A new <c>--addresses</c> option: frames without a symbol keep their address.</summary>
    public static Option<bool> Addresses() => new("--addresses") { Description = "Name frames that have no symbol by their address (module!0xRVA in a Windows trace) instead of by module alone" };

    /// <summary>What the user selected with <see cref="Process"/> and <see cref="Addresses"/>.</summary>
    public static StacksSelection Selection(ParseResult parse, Option<string?> process, Option<bool> addresses) =>
        new(parse.GetValue(process) is { } name && !string.IsNullOrWhiteSpace(name) ? name.Trim() : null, parse.GetValue(addresses));

    /// <summary>A new <c>--force</c> option: without it, a verb that writes a file refuses to replace one that exists.</summary>
    public static Option<bool> Force() => new("--force") { Description = "Overwrite the output file if it exists" };
}
