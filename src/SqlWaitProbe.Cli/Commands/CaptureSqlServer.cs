using System.CommandLine;
using SqlWaitProbe.Cli.Capture;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Cli.SqlServer;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.SqlServer.Capture;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The SQL Server path of <c>probe capture</c>: a workload run, an attach-mode capture, or the dry run of either.</summary>
public static class CaptureSqlServer
{
    /// <summary>Runs a SQL Server capture (or its dry run) from the parsed capture options.</summary>
    public static Task<int> RunAsync(ParseResult parse, CancellationToken cancellationToken) =>
        CommandRunner.RunAsync(parse, cancellationToken, async token =>
        {
            SqlClientCulture.UseInvariant();
            var request = SqlServerCaptureRequest.FromParse(parse, ConsolePrompt.ReadSecret);
            if (request.DryRun)
            {
                var statements = await SqlServerDryRun.RecordAsync(request, token);
                SqlServerDryRun.Print(request, statements, Console.Out);
                return (int)ExitCode.Success;
            }

            if (request.Capture.ResetServerState && !request.Yes)
            {
                var statements = ServerStateReset.Statements("(workload database)").Select(s => s.Text.Replace('\n', ' '));
                if (Console.IsInputRedirected)
                {
                    throw new BadInputException("--reset-server-state needs --yes when there is no terminal to confirm on");
                }

                if (!ConsolePrompt.Confirm($"--reset-server-state runs {string.Join(" ", statements)} for the WHOLE server (other monitoring loses its baselines). Continue?"))
                {
                    throw new BadInputException("--reset-server-state was not confirmed; nothing was sent");
                }
            }

            var outcome = await ProgressReporter.RunAsync($"capture {request.Capture.Workload?.Name ?? "attach"} into {request.Output}",
                progress => SqlServerCaptureRun.RunAsync(request, progress, token));
            CaptureReport.Print(outcome, Console.Out);
            return CaptureReport.ExitCode(outcome);
        });
}
