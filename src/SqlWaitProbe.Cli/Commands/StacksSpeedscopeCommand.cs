using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Reporting.Speedscope;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks speedscope</c>: a speedscope JSON file, one sampled profile per process.</summary>
public static class StacksSpeedscopeCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create(IProbeConsole console)
    {
        var input = StacksArguments.Input();
        var output = new Option<string>("--output", "-o") { Description = "The JSON file to write (open it at speedscope.app)", Required = true };
        var command = new Command("speedscope", "Convert stacks to speedscope's JSON format.");
        command.Arguments.Add(input);
        command.Options.Add(output);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async _ =>
        {
            var path = parse.GetValue(input)!;
            var (profile, unit) = StacksInput.LoadWithUnit(console, path);
            await StacksOutput.WriteAsync(console, parse.GetValue(output), stream =>
            {
                // The weights keep their unit: a speedscope input its own, perf cpu-clock periods nanoseconds, counts none.
                var file = SpeedscopeWriter.Convert(profile, path == "-" ? "stdin" : Path.GetFileName(path));
                foreach (var p in file.Profiles)
                {
                    p.Unit = unit;
                }

                SpeedscopeWriter.Write(file, stream);
                return Task.CompletedTask;
            });
            return 0;
        }));
        return command;
    }
}
