using System.CommandLine;
using System.Globalization;
using SqlWaitProbe.Capture;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Postgres.Embedded;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe demo</c>: an embedded PostgreSQL, the hashbytes workload at 1 and 2 sessions, about 30 seconds (two 8 s phases, each after its pilot), then the report.</summary>
public static class DemoCommand
{
    private static readonly Option<DirectoryInfo?> Output = new("--output", "-o") { Description = "Bundle folder (default: ./probe-runs/demo-<time>)." };
    private static readonly Option<string?> Cpu = new("--cpu") { Description = "CPU stack collector: perf or none (default: perf when available)." };
    private static readonly Option<string> Format = CaptureCommand.CreateFormat();
    // Not in help: the tests run the demo end to end with shorter phases; users get the demo as the README shows it.
    private static readonly Option<string?> PhaseDuration = new("--duration") { Description = "Each phase's length (default 8s).", Hidden = true };
    private static readonly Option<bool> Force = new("--force") { Description = "Write into an -o folder that is not empty and is not a bundle; its files stay as they are and are never listed (an existing bundle is never overwritten)." };

    public static Command Create(IProbeConsole console)
    {
        var command = new Command("demo", "Start a throw-away PostgreSQL, run the hashbytes workload at 1 and 2 sessions for about 30 seconds, and show what the report finds.");
        command.Options.Add(Output);
        command.Options.Add(Cpu);
        command.Options.Add(Format);
        command.Options.Add(Force);
        command.Options.Add(PhaseDuration);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            if (PostgresBinaries.TryFind() is null)
            {
                console.Error.WriteLine($"probe: the demo needs PostgreSQL server binaries (initdb, pg_ctl). Install them with: {PostgresBinaries.InstallCommand}");
                return 1;
            }

            var cpu = parse.GetValue(Cpu)?.ToLowerInvariant();
            if (cpu is not (null or "perf" or "none"))
            {
                throw new BadInputException($"--cpu '{cpu}' is not available on Linux; use perf or none");
            }

            if (cpu != "none" && PerfAvailability.Problem() is { } problem)
            {
                console.Error.WriteLine($"probe: the demo runs without CPU stacks: {problem}");
                cpu = "none";
            }

            var duration = parse.GetValue(PhaseDuration) ?? "8s";
            DurationParser.Parse(duration);

            // The demo's own choices, not the user's: none counts as given, so the manifest lists only what is set below.
            var options = new OptionValues(
                new Dictionary<IOptionSpec, object?>
                {
                    [EngineCatalog.Engine] = "postgres",
                    [CommonOptions.Workload] = "hashbytes",
                    [CommonOptions.Threads] = "2",
                    [CommonOptions.Duration] = duration,
                    [CpuOptions.Cpu] = cpu,
                    [SessionOptions.Output] = new DirectoryInfo(parse.GetValue(Output)?.FullName
                        ?? Path.GetFullPath(Path.Combine("probe-runs", "demo-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)))),
                    [SessionOptions.Force] = parse.GetValue(Force),
                },
                []);
            var request = CaptureThenAnalyse.Request(options, console) with
            {
                Options = new Dictionary<string, string>(StringComparer.Ordinal)
                {
                    ["command"] = "demo", ["--workload"] = "hashbytes", ["--threads"] = "2", ["--duration"] = duration, ["--cpu"] = cpu ?? "perf",
                },
            };
            OutputPath.CheckCaptureFolder(request.Output, request.Force);
            // The run folder for the server and perf is made later, in the middle of the capture: a temporary folder that
            // cannot hold it is said now, before a bundle is begun that would only record the failure.
            RuntimeFolder.Ensure(create: false);
            var outcome = await ProgressReporter.RunAsync(console, "demo: embedded PostgreSQL, hashbytes at 1 then 2 sessions",
                progress => CaptureThenAnalyse.RunAsync(request, new CaptureLog(console, parse.GetValue(GlobalOptions.Verbose)), console.Error, progress, token),
                plain: parse.GetValue(Format) == "json");
            CaptureSummary.Write(outcome, parse.GetValue(Format) ?? "text", console.Out, findings: CaptureSummary.FirstFindings);

            return CaptureSummary.ExitCode(outcome);
        }));
        return command;
    }
}
