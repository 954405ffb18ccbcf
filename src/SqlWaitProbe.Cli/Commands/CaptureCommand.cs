using System.CommandLine;
using SqlWaitProbe.Capture;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe capture</c>: runs a workload at a 1-session baseline and N sessions while collecting CPU stacks, waits and counters into a bundle.</summary>
public static class CaptureCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create(IProbeConsole console)
    {
        var command = new Command("capture", "Run a workload (baseline, then N sessions) and capture CPU stacks, waits and counters into a bundle, then analyse it.");
        foreach (var option in CaptureOptions.All)
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            var arguments = CaptureArgumentsReader.Read(parse);
            var request = CaptureRequest.Build(arguments, EngineCatalog.Create(arguments, console));
            if (arguments.DryRun)
            {
                await CaptureDryRun.WriteAsync(request, console.Out, token);
                return (int)ExitCode.Success;
            }

            // Before any prompt or progress line: a folder in the way is one line and nothing else.
            OutputPath.CheckCaptureFolder(request.Output, request.Force);
            if (request.Engine.Confirmation is { } confirmation && !arguments.Yes)
            {
                if (console.IsInputRedirected)
                {
                    throw new BadInputException($"{confirmation.Option} needs --yes when there is no terminal to confirm on");
                }

                if (!ConsolePrompt.Confirm(console, confirmation.Question))
                {
                    throw new BadInputException($"{confirmation.Option} was not confirmed; nothing was sent");
                }
            }

            var outcome = await ProgressReporter.RunAsync(console, $"capture {request.WorkloadName} into {request.Output}",
                progress => CaptureThenAnalyse.RunAsync(request, new CaptureLog(console, arguments.Verbose), console.Error, progress, token),
                plain: parse.GetValue(CaptureOptions.Format) == "json");
            CaptureSummary.Write(outcome, parse.GetValue(CaptureOptions.Format) ?? "text", console.Out);
            return CaptureSummary.ExitCode(outcome);
        }));
        return command;
    }
}
