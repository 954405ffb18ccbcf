using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Npgsql;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Embedded;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// One real embedded PostgreSQL for the attach cases, shared by their tests: a table of counters to lock, a role
/// without <c>pg_monitor</c>, and a role whose backends run with <c>track_activities = off</c>. Each test runs its own
/// outside clients (<see cref="StartPgbench"/>) with an application name of its own. TLS is on with a self-signed
/// certificate (<see cref="CertificatePath"/>), as on a server whose DBA made their own.
/// </summary>
public sealed class AttachCasesFixture : IAsyncLifetime
{
    /// <summary>A login without pg_monitor or pg_read_all_stats.</summary>
    public const string UnprivilegedRole = "probe_nomon";

    /// <summary>An application's login, whose sessions a role without pg_monitor cannot see.</summary>
    public const string AppRole = "probe_app_owner";

    /// <summary>A login whose sessions have track_activities off.</summary>
    public const string UntrackedRole = "probe_untracked";

    /// <summary>The server's self-signed certificate (PEM), for <c>Root Certificate=</c>.</summary>
    public string CertificatePath => Path.Combine(Server.DataFolder, "server.crt");

    /// <summary>The running server.</summary>
    public EmbeddedPostgres Server { get; private set; } = null!;

    /// <summary>The connection string as the probe would be given it, as <paramref name="user"/>.</summary>
    public string ConnectionString(string user = "postgres") => new NpgsqlConnectionStringBuilder(Server.ConnectionString) { Username = user }.ConnectionString;

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        Server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions { MaxSessions = 20 }, new Progress<string>(), CancellationToken.None);
        await using var admin = new NpgsqlConnection(Server.ConnectionString);
        await admin.OpenAsync();
        await new NpgsqlCommand(
            "CREATE TABLE counters (id int PRIMARY KEY, v bigint NOT NULL); INSERT INTO counters SELECT g, 0 FROM generate_series(1, 10) g; "
            + $"CREATE ROLE {UnprivilegedRole} LOGIN; CREATE ROLE {AppRole} LOGIN; CREATE ROLE {UntrackedRole} LOGIN; ALTER ROLE {UntrackedRole} SET track_activities = off; "
            + $"GRANT ALL ON counters TO {UntrackedRole}",
            admin).ExecuteNonQueryAsync();
        await EnableTlsAsync(admin);
    }

    private async Task EnableTlsAsync(NpgsqlConnection admin)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=probe-attach-test", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(2));
        var keyPath = Path.Combine(Server.DataFolder, "server.key");
        await File.WriteAllTextAsync(CertificatePath, certificate.ExportCertificatePem());
        await File.WriteAllTextAsync(keyPath, key.ExportPkcs8PrivateKeyPem());
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(keyPath, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        }

        // The server runs as its own OS user when the tests run as root, and refuses a key that user does not own.
        using (var chown = Process.Start("chown", ["--reference=" + Server.DataFolder, CertificatePath, keyPath]))
        {
            await chown.WaitForExitAsync();
        }

        await new NpgsqlCommand("ALTER SYSTEM SET ssl = on", admin).ExecuteNonQueryAsync();
        await new NpgsqlCommand("SELECT pg_reload_conf()", admin).ExecuteNonQueryAsync();
        for (var i = 0; (string)(await new NpgsqlCommand("SHOW ssl", admin).ExecuteScalarAsync())! != "on"; i++)
        {
            if (i == 50)
            {
                throw new InvalidOperationException("ssl = on did not take effect");
            }

            await Task.Delay(100);
        }
    }

    /// <summary>
    /// Starts pgbench as an outside client: <paramref name="clients"/> connections running <paramref name="script"/>
    /// for at most a minute, named <paramref name="application"/>; <paramref name="connectEach"/> opens a new
    /// connection per transaction (-C). Dispose the process to stop it.
    /// </summary>
    public Process StartPgbench(string application, string script, int clients, bool connectEach = false, string user = "postgres")
    {
        var file = Path.Combine(SqlWaitProbe.TestSupport.TestData.TempFolder(), "script.sql");
        File.WriteAllText(file, script);
        var start = new ProcessStartInfo(Path.Combine(Server.BinFolder, "pgbench"))
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var a in new[] { "-h", Server.SocketFolder, "-p", Server.Port.ToString(CultureInfo.InvariantCulture), "-U", user, "-n", "-c", clients.ToString(CultureInfo.InvariantCulture), "-T", "60", "-f", file })
        {
            start.ArgumentList.Add(a);
        }

        if (connectEach)
        {
            start.ArgumentList.Add("-C");
        }

        start.ArgumentList.Add("postgres");
        start.Environment["PGAPPNAME"] = application;
        var process = Process.Start(start)!;
        _ = process.StandardOutput.ReadToEndAsync();
        _ = process.StandardError.ReadToEndAsync();
        return process;
    }

    /// <summary>Waits until <paramref name="application"/> has at least one backend, so the capture finds it.</summary>
    public async Task WaitForAsync(string application)
    {
        await using var c = new NpgsqlConnection(Server.ConnectionString);
        await c.OpenAsync();
        var waited = Stopwatch.StartNew();
        while ((long)(await new NpgsqlCommand($"SELECT count(*) FROM pg_stat_activity WHERE application_name = '{application}'", c).ExecuteScalarAsync())! == 0)
        {
            if (waited.Elapsed > TimeSpan.FromSeconds(20))
            {
                throw new TimeoutException($"pgbench of {application} never connected");
            }

            await Task.Delay(50);
        }

        // Let the clients settle into their loop.
        await Task.Delay(500);
    }

    /// <summary>The pids of the backends <paramref name="where"/> picks from pg_stat_activity, read as a superuser.</summary>
    public async Task<IReadOnlyList<int>> PidsAsync(string where)
    {
        await using var c = new NpgsqlConnection(Server.ConnectionString);
        await c.OpenAsync();
        await using var reader = await new NpgsqlCommand($"SELECT pid FROM pg_stat_activity WHERE {where} ORDER BY pid", c).ExecuteReaderAsync();
        var pids = new List<int>();
        while (await reader.ReadAsync())
        {
            pids.Add(reader.GetInt32(0));
        }

        return pids;
    }

    /// <inheritdoc />
    public async Task DisposeAsync() => await Server.DisposeAsync();
}
