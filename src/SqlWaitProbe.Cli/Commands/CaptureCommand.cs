using System.CommandLine;
using SqlWaitProbe.Capture;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe capture</c>: runs a workload at a 1-session baseline and N sessions while collecting CPU stacks, waits and counters into a bundle.</summary>
public static class CaptureCommand
{
    public static Command Create(IProbeConsole console)
    {
        var command = new Command("capture", "Run a workload (baseline, then N sessions) and capture CPU stacks, waits and counters into a bundle, then analyse it.");
        var binder = new OptionBinder(CaptureOptionList.All);
        foreach (var option in binder.Options)
        {
            command.Options.Add(option);
        }

        var format = CreateFormat();
        command.Options.Add(format);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            var options = binder.Read(parse);
            var request = CaptureThenAnalyse.Request(options, console);
            if (options.Get(CommonOptions.DryRun))
            {
                await CaptureDryRun.WriteAsync(request, console.Out, token);
                return (int)ExitCode.Success;
            }

            // Before any prompt or progress line: a folder in the way is one line and nothing else.
            OutputPath.CheckCaptureFolder(request.Output, request.Force);
            // The run folder for the server and perf is made later, in the middle of the capture: a temporary folder that
            // cannot hold it is said now, before a bundle is begun that would only record the failure.
            RuntimeFolder.Ensure(create: false);
            if (request.Engine.Confirmation is { } confirmation && !options.Get(SessionOptions.Yes))
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
                progress => CaptureThenAnalyse.RunAsync(request, new CaptureLog(console, parse.GetValue(GlobalOptions.Verbose)), console.Error, progress, token),
                plain: parse.GetValue(format) == "json");
            CaptureSummary.Write(outcome, parse.GetValue(format) ?? "text", console.Out, findings: CaptureSummary.FirstFindings);
            return CaptureSummary.ExitCode(outcome);
        }));
        return command;
    }

    /// <summary>A <c>--format text|json</c> option for a command that ends with a capture summary.</summary>
    public static Option<string> CreateFormat() => JsonFormatOption.Create(
        "The summary at the end: text, or json (bundle, status, per-phase executions, rates per second, latencies in ms, report, findings) for scripts; progress stays on stderr.");
}
