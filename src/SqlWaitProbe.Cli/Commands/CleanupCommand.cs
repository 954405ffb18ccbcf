using System.CommandLine;
using SqlWaitProbe.Capture.Os;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Cleanup;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe cleanup</c>: finds and removes what killed captures left behind.</summary>
public static class CleanupCommand
{
    private static readonly Option<bool> DryRun = new("--dry-run") { Description = "Only list what would be removed." };

    // The connection options of cleanup serve one purpose: dropping the probe's leftover XE sessions on a SQL Server.
    private static readonly Option<string?> Server = new("--server", "-S")
    {
        Description = "Also drop the probe's leftover extended-event sessions on this SQL Server (connection string or server name); without it, only this machine's leftovers go.",
    };

    private static readonly Option<string?> User = new("--user", "-U") { Description = "SQL login that drops the leftover XE sessions (with --server); without it, integrated authentication." };
    private static readonly Option<string?> PasswordEnv = new("--password-env") { Description = "Name of the environment variable that holds that login's password." };
    private static readonly Option<bool> Encrypt = new("--encrypt") { Description = "Require an encrypted connection to the --server whose XE sessions are dropped." };
    private static readonly Option<bool> TrustServerCertificate = new("--trust-server-certificate") { Description = "Trust that server's certificate without validation (test servers only)." };

    /// <summary>Every cleaner <c>probe cleanup</c> runs; other engines and platforms add theirs here.</summary>
    public static IReadOnlyList<ILeftoverCleaner> Cleaners() =>
        OperatingSystem.IsLinux() ? [new EmbeddedPostgresCleaner(), new PerfLeftoverCleaner()] : [];

    /// <summary>Builds the command.</summary>
    public static Command Create(IProbeConsole console)
    {
        var command = new Command("cleanup", "Find and remove leftovers of killed captures: embedded PostgreSQL servers and folders, perf record children, "
            + "ETW sessions (Windows) and, with --server, the probe's extended-event sessions on a SQL Server.");
        command.Options.Add(DryRun);
        foreach (var option in new Option[] { Server, User, PasswordEnv, Encrypt, TrustServerCertificate })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            var dry = parse.GetValue(DryRun);
            var total = 0;
            var failed = 0;
            var cleaners = new List<ILeftoverCleaner>(Cleaners());
            await using var xe = await OpenXeCleanerAsync(parse, token);
            if (xe is not null)
            {
                cleaners.Add(xe);
            }

            foreach (var session in await EtwSupport.FindLeftoversAsync(token))
            {
                total++;
                console.Out.WriteLine(dry ? $"would remove [etw-session] {session}" : $"[etw-session] found {session}");
            }

            if (!dry && total > 0)
            {
                foreach (var removed in await EtwSupport.CleanupAsync(token))
                {
                    console.Out.WriteLine($"[etw-session] removed {removed}");
                }
            }

            foreach (var cleaner in cleaners)
            {
                foreach (var leftover in await cleaner.FindAsync(token))
                {
                    total++;
                    if (dry)
                    {
                        console.Out.WriteLine($"would remove [{cleaner.Name}] {leftover.Description}");
                        continue;
                    }

                    try
                    {
                        console.Out.WriteLine($"[{cleaner.Name}] {await cleaner.RemoveAsync(leftover, token)}");
                    }
                    catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
                    {
                        failed++;
                        console.Error.WriteLine($"probe: could not remove {leftover.Description}: {e.Message}");
                    }
                }
            }

            console.Out.WriteLine(total == 0 ? "nothing to clean up." : dry ? $"{total} leftover(s) found; run without --dry-run to remove them." : $"{total - failed} of {total} leftover(s) removed.");
            return failed == 0 ? 0 : 1;
        }));
        return command;
    }

    private static async Task<XeLeftoverCleaner?> OpenXeCleanerAsync(ParseResult parse, CancellationToken cancellationToken)
    {
        if (parse.GetValue(Server) is not { } server)
        {
            return null;
        }

        SqlClientCulture.UseInvariant();
        var passwordEnv = parse.GetValue(PasswordEnv);
        var password = passwordEnv is null ? null : Environment.GetEnvironmentVariable(passwordEnv)
            ?? throw new BadInputException($"--password-env: the environment variable {passwordEnv} is not set");
        return await XeLeftoverCleaner.OpenAsync(
            new SqlServerConnectionSettings
            {
                Server = server,
                User = parse.GetValue(User),
                Password = password,
                Encrypt = parse.GetValue(Encrypt),
                TrustServerCertificate = parse.GetValue(TrustServerCertificate),
                RunId = "cleanup",
            },
            cancellationToken);
    }
}
