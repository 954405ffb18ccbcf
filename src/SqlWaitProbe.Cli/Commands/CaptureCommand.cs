using System.CommandLine;
using SqlWaitProbe.Cli.Capture;
using SqlWaitProbe.Cli.Infrastructure;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe capture</c>: runs a workload at a 1-session baseline and N sessions while collecting CPU stacks, waits and counters into a bundle.</summary>
public static class CaptureCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var command = new Command("capture", "Run a workload (baseline, then N sessions) and capture CPU stacks, waits and counters into a bundle, then analyse it.");
        foreach (var option in CaptureOptions.All)
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) =>
        {
            var engine = parse.GetValue(CaptureOptions.Engine)?.ToLowerInvariant();
            return engine switch
            {
                "sqlserver" => CaptureSqlServer.RunAsync(parse, ct),
                "postgres" => CommandRunner.RunAsync(parse, ct, async token =>
                {
                    var request = PostgresCaptureRequest.FromParse(parse);
                    if (request.DryRun)
                    {
                        DryRunPlan.Print(request, Console.Out);
                        return 0;
                    }

                    var outcome = await ProgressReporter.RunAsync($"capture {request.WorkloadName} into {request.Output}", progress => PostgresCapture.RunAsync(request, progress, token));
                    CaptureReport.Print(outcome, Console.Out);
                    return CaptureReport.ExitCode(outcome);
                }),
                _ => CommandRunner.RunAsync(parse, ct, _ => throw new Core.Errors.BadInputException($"--engine '{engine}' is not known; use postgres or sqlserver")),
            };
        });
        return command;
    }
}
