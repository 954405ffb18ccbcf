using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Reporting.Pprof;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks pprof</c>: pprof's gzipped profile.proto, for go tool pprof, Pyroscope and other pprof readers.</summary>
public static class StacksPprofCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create(IProbeConsole console)
    {
        var input = StacksArguments.Input();
        var output = new Option<string>("--output", "-o") { Description = "The .pb.gz file to write (read it with 'go tool pprof FILE'), or - for stdout", Required = true };
        var command = new Command("pprof", "Convert stacks to pprof's gzipped protobuf profile; each process is a 'process' label.");
        command.Arguments.Add(input);
        command.Options.Add(output);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async _ =>
        {
            var (profile, unit) = StacksInput.LoadWithUnit(console, parse.GetValue(input)!);
            await StacksOutput.WriteAsync(console, parse.GetValue(output), stream =>
            {
                PprofWriter.Write(profile, unit, stream);
                return Task.CompletedTask;
            });
            return 0;
        }));
        return command;
    }
}
