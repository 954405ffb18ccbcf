using System.CommandLine;
using System.Globalization;
using SqlWaitProbe.Cli.Capture;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.Postgres.Workloads;
using SqlWaitProbe.Workload.Capture;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe demo</c>: an embedded PostgreSQL, the hashbytes workload at 1 and 2 sessions, about 20 seconds, then the report.</summary>
public static class DemoCommand
{
    private static readonly Option<DirectoryInfo?> Output = new("--output", "-o") { Description = "Bundle folder (default: ./probe-runs/demo-<time>)." };
    private static readonly Option<string?> Cpu = new("--cpu") { Description = "CPU stack collector: perf or none (default: perf when available)." };

    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var command = new Command("demo", "Start a throw-away PostgreSQL, run the hashbytes workload at 1 and 2 sessions for about 20 seconds, and show what the report finds.");
        command.Options.Add(Output);
        command.Options.Add(Cpu);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(parse, ct, async token =>
        {
            if (PostgresBinaries.TryFind() is null)
            {
                Console.Error.WriteLine($"probe: the demo needs PostgreSQL server binaries (initdb, pg_ctl). Install them with: {PostgresBinaries.InstallCommand}");
                return 1;
            }

            var cpu = parse.GetValue(Cpu)?.ToLowerInvariant();
            if (cpu is not (null or "perf" or "none"))
            {
                throw new Core.Errors.BadInputException($"--cpu '{cpu}' is not available on Linux; use perf or none");
            }

            if (cpu != "none" && PerfAvailability.Problem() is { } problem)
            {
                Console.Error.WriteLine($"probe: the demo runs without CPU stacks: {problem}");
                cpu = "none";
            }

            var output = parse.GetValue(Output)?.FullName
                ?? Path.GetFullPath(Path.Combine("probe-runs", "demo-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)));
            var request = new PostgresCaptureRequest
            {
                Workload = PostgresWorkloadCatalog.Get("hashbytes", PostgresWorkloadCatalog.DefaultScale),
                Plan = CapturePlan.Build([2], baseline: true, TimeSpan.FromSeconds(8), null),
                Output = output,
                Cpu = cpu,
                Verbose = parse.GetValue(GlobalOptions.Verbose),
                Options = new Dictionary<string, string>(StringComparer.Ordinal)
                {
                    ["command"] = "demo", ["--workload"] = "hashbytes", ["--threads"] = "2", ["--duration"] = "8s", ["--cpu"] = cpu ?? "perf",
                },
            };
            var outcome = await ProgressReporter.RunAsync("demo: embedded PostgreSQL, hashbytes at 1 then 2 sessions", progress => PostgresCapture.RunAsync(request, progress, token));
            CaptureReport.Print(outcome, Console.Out);
            if (outcome.Findings.Count > 0)
            {
                Console.Out.WriteLine("first findings:");
                foreach (var finding in outcome.Findings.Take(5))
                {
                    Console.Out.WriteLine("  - " + finding);
                }
            }

            return CaptureReport.ExitCode(outcome);
        }));
        return command;
    }
}
