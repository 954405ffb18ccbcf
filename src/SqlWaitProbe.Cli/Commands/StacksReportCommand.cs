using System.CommandLine;
using System.Globalization;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// The frame of the <c>probe stacks</c> verbs that print what they find in one profile to stdout (modules, focus):
/// the input argument, <c>--format</c> with <c>table</c> as the default, the stacks loaded with the unit of their
/// weights, and an output that writes JSON, CSV text and Spectre tables the same way for each verb.
/// </summary>
internal static class StacksReportCommand
{
    /// <summary>
    /// Builds the command <paramref name="name"/> with <paramref name="options"/> after the input; <paramref name="report"/>
    /// gets the parse result, the stacks with their unit, and the output in the format the user chose.
    /// </summary>
    public static Command Create(
        IProbeConsole console,
        string name,
        string description,
        string formatDescription,
        IReadOnlyList<string> formats,
        IReadOnlyList<Option> options,
        Action<ParseResult, SpeedscopeImport, StacksReportOutput> report)
    {
        var input = StacksArguments.Input();
        var format = new Option<string>("--format") { Description = formatDescription, DefaultValueFactory = _ => "table" };
        var process = StacksArguments.Process();
        var addresses = StacksArguments.Addresses();
        format.AcceptOnlyFromAmong(["table", .. formats]);
        var command = new Command(name, description);
        command.Arguments.Add(input);
        foreach (var option in options)
        {
            command.Options.Add(option);
        }

        command.Options.Add(process);
        command.Options.Add(addresses);
        command.Options.Add(format);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async _ =>
        {
            var stacks = StacksInput.LoadWithUnit(console, parse.GetValue(input)!, StacksArguments.Selection(parse, process, addresses));
            report(parse, stacks, new StacksReportOutput(console, parse.GetValue(format)!));
            await console.Out.FlushAsync();
            return 0;
        }));
        return command;
    }

    /// <summary>A share of all samples as a percentage with one decimal, as every stacks table shows it.</summary>
    public static string Percent(double share) => share.ToString("P1", CultureInfo.InvariantCulture);
}
