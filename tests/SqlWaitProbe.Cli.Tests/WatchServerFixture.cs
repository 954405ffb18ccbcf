using System.Diagnostics;
using Npgsql;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Embedded;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A real embedded PostgreSQL of the watch tests' own, with one row to fight over: a lock convoy is one session holding
/// the row in an open transaction and others updating it, each named by the test's application so the watch follows them.
/// </summary>
public sealed class WatchServerFixture : IAsyncLifetime
{
    private bool _restarted;

    /// <summary>The running server.</summary>
    public EmbeddedPostgres Server { get; private set; } = null!;

    /// <summary>The connection string the probe is given.</summary>
    public string ConnectionString => Server.ConnectionString;

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        Server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "w" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions { MaxSessions = 20 }, new Progress<string>(), CancellationToken.None);
        await using var admin = new NpgsqlConnection(Server.ConnectionString);
        await admin.OpenAsync();
        await new NpgsqlCommand("CREATE TABLE hot (id int PRIMARY KEY, v bigint NOT NULL); INSERT INTO hot VALUES (1, 0)", admin).ExecuteNonQueryAsync();
    }

    /// <summary>
    /// Runs a lock convoy for <paramref name="hold"/>: one session of <paramref name="application"/> takes the row and sits
    /// in its transaction, <paramref name="waiters"/> others update the same row and wait for it. Returns when the waiters
    /// have been sent (UTC), and the task that ends with the convoy.
    /// </summary>
    public async Task<(DateTime StartedUtc, Task Done)> StartConvoyAsync(string application, int waiters, TimeSpan hold)
    {
        var builder = new NpgsqlConnectionStringBuilder(Server.ConnectionString) { ApplicationName = application, Pooling = false };
        var holder = new NpgsqlConnection(builder.ConnectionString);
        await holder.OpenAsync();
        var transaction = await holder.BeginTransactionAsync();
        await new NpgsqlCommand("UPDATE hot SET v = v + 1 WHERE id = 1", holder, transaction).ExecuteNonQueryAsync();
        var connections = new List<NpgsqlConnection>();
        for (var i = 0; i < waiters; i++)
        {
            var c = new NpgsqlConnection(builder.ConnectionString);
            await c.OpenAsync();
            connections.Add(c);
        }

        var started = DateTime.UtcNow;
        var updates = connections.Select(c => new NpgsqlCommand("UPDATE hot SET v = v + 1 WHERE id = 1", c) { CommandTimeout = 120 }.ExecuteNonQueryAsync()).ToArray();
        var done = Task.Run(async () =>
        {
            await Task.Delay(hold);
            await transaction.CommitAsync();
            await Task.WhenAll(updates);
            foreach (var c in connections)
            {
                await c.DisposeAsync();
            }

            await holder.DisposeAsync();
        });
        return (started, done);
    }

    /// <summary>Restarts the server (fast shutdown, start with the same settings), as an administrator would.</summary>
    public async Task RestartAsync()
    {
        _restarted = true;
        await PgCtlAsync("restart", "-w", "-t", "30", "-m", "fast");
    }

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        // The embedded server's own stop knows only the first postmaster: a restarted one is stopped here.
        if (_restarted)
        {
            await PgCtlAsync("stop", "-w", "-t", "10", "-m", "fast");
        }

        await Server.DisposeAsync();
    }

    private async Task PgCtlAsync(params string[] args)
    {
        var pgCtl = Path.Combine(Server.BinFolder, "pg_ctl");
        var info = Server.RunAs is { } user ? new ProcessStartInfo("runuser") { ArgumentList = { "-u", user, "--", pgCtl } } : new ProcessStartInfo(pgCtl);
        foreach (var a in args)
        {
            info.ArgumentList.Add(a);
        }

        info.ArgumentList.Add("-D");
        info.ArgumentList.Add(Server.DataFolder);
        info.ArgumentList.Add("-l");
        info.ArgumentList.Add(Server.LogFile);
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        using var p = Process.Start(info)!;
        var output = p.StandardOutput.ReadToEndAsync();
        var error = p.StandardError.ReadToEndAsync();
        await p.WaitForExitAsync();
        Assert.True(p.ExitCode == 0, $"pg_ctl {string.Join(' ', args)}: {await output} {await error}");
    }
}
