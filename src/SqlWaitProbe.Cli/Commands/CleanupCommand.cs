using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Cleanup;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Postgres.Embedded;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe cleanup</c>: finds and removes what killed captures left behind.</summary>
public static class CleanupCommand
{
    private static readonly Option<bool> DryRun = new("--dry-run") { Description = "Only list what would be removed." };

    /// <summary>Every cleaner <c>probe cleanup</c> runs; other engines and platforms add theirs here.</summary>
    public static IReadOnlyList<ILeftoverCleaner> Cleaners() =>
        OperatingSystem.IsLinux() ? [new EmbeddedPostgresCleaner(), new PerfLeftoverCleaner()] : [];

    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var command = new Command("cleanup", "Find and remove leftovers of killed captures: embedded PostgreSQL servers and folders, perf record children.");
        command.Options.Add(DryRun);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(parse, ct, async token =>
        {
            var dry = parse.GetValue(DryRun);
            var total = 0;
            var failed = 0;
            foreach (var cleaner in Cleaners())
            {
                foreach (var leftover in await cleaner.FindAsync(token))
                {
                    total++;
                    if (dry)
                    {
                        Console.Out.WriteLine($"would remove [{cleaner.Name}] {leftover.Description}");
                        continue;
                    }

                    try
                    {
                        Console.Out.WriteLine($"[{cleaner.Name}] {await cleaner.RemoveAsync(leftover, token)}");
                    }
                    catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
                    {
                        failed++;
                        Console.Error.WriteLine($"probe: could not remove {leftover.Description}: {e.Message}");
                    }
                }
            }

            Console.Out.WriteLine(total == 0 ? "nothing to clean up." : dry ? $"{total} leftover(s) found; run without --dry-run to remove them." : $"{total - failed} of {total} leftover(s) removed.");
            return failed == 0 ? 0 : 1;
        }));
        return command;
    }
}
