using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// The frame of every <c>probe stacks</c> format conversion: one input, a required <c>--output</c> (a file, or - for
/// stdout), the stacks loaded with the unit of their weights, and one writer that says how the format is written.
/// </summary>
internal static class StacksConversion
{
    /// <summary>
    /// Builds the command <paramref name="name"/>; <paramref name="write"/> gets the stacks, their unit, a name for
    /// the source (the input's file name, or <c>stdin</c>) and the stream to write to.
    /// </summary>
    public static Command Create(IProbeConsole console, string name, string description, string outputDescription, Action<StackProfile, string, string, Stream> write)
    {
        var input = StacksArguments.Input();
        var output = new Option<string>("--output", "-o") { Description = outputDescription, Required = true };
        var force = StacksArguments.Force();
        var process = StacksArguments.Process();
        var addresses = StacksArguments.Addresses();
        var command = new Command(name, description);
        command.Arguments.Add(input);
        command.Options.Add(output);
        command.Options.Add(process);
        command.Options.Add(addresses);
        command.Options.Add(force);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async _ =>
        {
            var path = parse.GetValue(input)!;
            var (profile, unit) = StacksInput.LoadWithUnit(console, path, StacksArguments.Selection(parse, process, addresses));
            var source = path == "-" ? "stdin" : Path.GetFileName(path);
            await StacksOutput.WriteAsync(console, parse.GetValue(output), parse.GetValue(force), stream =>
            {
                write(profile, unit, source, stream);
                return Task.CompletedTask;
            });
            return 0;
        }, checkOutput: () => StacksOutput.Check(parse.GetValue(output), parse.GetValue(force), parse.GetValue(input))));
        return command;
    }
}
