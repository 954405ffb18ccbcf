using System.CommandLine;
using System.Text.Json;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe cleanup</c>: finds and removes what killed probe runs left behind, trusting only the probe's private folder.</summary>
public static class CleanupCommand
{
    private static readonly Option<bool> DryRun = new("--dry-run") { Description = "Only list what would be removed." };

    private static readonly Option<bool> RestoreSettings = new("--restore-settings")
    {
        Description = "Also put back the server settings a killed probe experiment left changed (each read back), connecting as the experiment did; "
            + "only on a server with the identity recorded with the change. Without it they are listed with the statements that restore them, and kept.",
    };

    private static readonly Option<string> Format = JsonFormatOption.Create(
        "text, or json for scripts: the private folder, each leftover run (kind, description, what removing it touches, and the result or error) and what was left alone.");

    public static Command Create(IProbeConsole console)
    {
        var command = new Command("cleanup", "Find and remove what killed probe runs of this user left behind, as recorded in the probe's private folder: "
            + "embedded PostgreSQL servers and their folders, perf record children, analyze and pack temporary files, ETW sessions (Windows) and, "
            + "with --server, the runs' extended-event sessions on a SQL Server, and with --restore-settings, the server settings a killed experiment left changed. Processes are stopped only while they are the very process recorded.");
        command.Options.Add(DryRun);
        command.Options.Add(RestoreSettings);
        command.Options.Add(Format);

        // The engines' own: a server on which to drop what killed captures left there.
        var binder = new OptionBinder(Registered.Engines.SelectMany(e => e.CleanupOptions));
        foreach (var option in binder.Options)
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            var dry = parse.GetValue(DryRun);
            var json = parse.GetValue(Format) == "json";
            var options = binder.Read(parse);
            await using var servers = await ServerCleanups.OpenAsync(options, token);
            var cleaner = new RuntimeCleaner(EtwTraceSessions.OfThisMachine(), servers.CleanAsync, parse.GetValue(RestoreSettings) ? SettingRestores.RestoreAsync : null);
            var found = await cleaner.FindAsync(token);
            var results = new List<CleanupResult>();
            foreach (var leftover in found)
            {
                if (dry)
                {
                    results.Add(new CleanupResult(leftover, null, null));
                    continue;
                }

                try
                {
                    results.Add(new CleanupResult(leftover, await cleaner.RemoveAsync(leftover, token), null));
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
                {
                    results.Add(new CleanupResult(leftover, null, e.Message));
                    console.Error.WriteLine($"probe: could not clean up {leftover.Description}: {e.Message}");
                }
            }

            var leftAlone = cleaner.LeftAlone.Distinct(StringComparer.Ordinal).ToList();
            var failed = results.Count(r => r.Error is not null);
            if (json)
            {
                WriteJson(console, dry, results, leftAlone);
            }
            else
            {
                WriteText(console, dry, results, leftAlone);
            }

            return failed == 0 ? 0 : 1;
        }));
        return command;
    }

    private static void WriteText(IProbeConsole console, bool dry, List<CleanupResult> results, List<string> leftAlone)
    {
        foreach (var (leftover, outcome, error) in results)
        {
            if (dry)
            {
                console.Out.WriteLine($"would clean up {leftover.Description}:");
                foreach (var action in leftover.Actions)
                {
                    console.Out.WriteLine("  would " + action);
                }
            }
            else if (error is null)
            {
                console.Out.WriteLine($"{leftover.Description}: {outcome}");
            }
        }

        foreach (var alone in leftAlone)
        {
            console.Out.WriteLine("left alone: " + alone);
        }

        var failed = results.Count(r => r.Error is not null);
        console.Out.WriteLine(results.Count == 0
            ? $"nothing to clean up (private folder {RuntimeFolder.Location})."
            : dry ? $"{results.Count} leftover run(s) found; run without --dry-run to remove them." : $"{results.Count - failed} of {results.Count} leftover run(s) cleaned up.");
    }

    private static void WriteJson(IProbeConsole console, bool dry, List<CleanupResult> results, List<string> leftAlone)
    {
        var json = new
        {
            DryRun = dry,
            PrivateFolder = RuntimeFolder.Location,
            Found = results.Count,
            Cleaned = dry ? 0 : results.Count(r => r.Error is null),
            Failed = results.Count(r => r.Error is not null),
            Leftovers = results.Select(r => new { r.Leftover.Kind, r.Leftover.Id, r.Leftover.Description, r.Leftover.Actions, r.Outcome, r.Error }),
            LeftAlone = leftAlone,
        };
        console.Out.Write(JsonSerializer.Serialize(json, ProbeJson.Options) + "\n");
    }
}
