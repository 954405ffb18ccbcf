using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Reporting.ChromeTrace;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks chrome-trace</c>: Chrome Trace Event JSON, which Perfetto and chrome://tracing open as a flame chart.</summary>
public static class StacksChromeTraceCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create(IProbeConsole console)
    {
        var input = StacksArguments.Input();
        var output = new Option<string>("--output", "-o") { Description = "The .json file to write (open it at ui.perfetto.dev), or - for stdout", Required = true };
        var command = new Command("chrome-trace", "Convert stacks to Chrome trace JSON for Perfetto: one track per process, stacks as nested spans (1 ms per sample).");
        command.Arguments.Add(input);
        command.Options.Add(output);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async _ =>
        {
            var path = parse.GetValue(input)!;
            var (profile, unit) = StacksInput.LoadWithUnit(console, path);
            await StacksOutput.WriteAsync(console, parse.GetValue(output), stream =>
            {
                ChromeTraceWriter.Write(profile, unit, path == "-" ? "stdin" : Path.GetFileName(path), stream);
                return Task.CompletedTask;
            });
            return 0;
        }));
        return command;
    }
}
