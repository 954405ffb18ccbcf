using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>--server</c> for PostgreSQL in each form a DBA writes it — Npgsql's, libpq's keyword/value pairs (quoted and
/// escaped), a <c>postgresql://</c> URI with a percent-encoded password, libpq pairs with <c>--password-env</c> —
/// against a real PostgreSQL that demands a scram-sha-256 password over TCP: the dry run, <c>probe check</c> and a
/// capture with analysis all work, and the password is on no printed line and in no file of the bundle or error log.
/// Before, a libpq string was taken as one host name, printed in clear on stderr, in capture.log, in manifest.json's
/// <c>options.--server</c> and in the dry run.
/// </summary>
[Collection(ScramServerCollection.Name)]
public sealed class ServerFormsTests(ScramPostgresFixture server)
{
    private const string PasswordVariable = "PROBE_TEST_SCRAM_PASSWORD";

    public static TheoryData<string> Forms() => ["npgsql", "libpq", "libpq-escaped", "uri", "libpq-password-env"];

    [Theory]
    [MemberData(nameof(Forms))]
    public async Task Every_accepted_form_connects_with_scram_and_the_password_appears_nowhere(string form)
    {
        var started = DateTime.UtcNow.AddSeconds(-1);
        var text = Server(form);
        var environment = new Dictionary<string, string>();
        string[] passwordEnv = [];
        if (form == "libpq-password-env")
        {
            environment[PasswordVariable] = ScramPostgresFixture.Password;
            passwordEnv = ["--password-env", PasswordVariable];
        }

        var bundle = Path.Combine(TestData.TempFolder("server-forms"), "bundle");
        var dryRun = await RunAsync(environment, ["capture", "--server", text, .. passwordEnv, "--workload", "noop", "--dry-run", "-v", "-o", bundle]);
        Assert.True(dryRun.Exit == 0, dryRun.Err);
        Assert.Contains("-- server: Host=127.0.0.1;Port=" + server.Port, dryRun.Out);
        var check = await RunAsync(environment, ["check", "--engine", "postgres", "--server", text, .. passwordEnv, "-v"]);
        Assert.True(check.Exit == 0, check.Out + check.Err);
        var capture = await RunAsync(environment, ["capture", "--server", text, .. passwordEnv, "--sql", TestData.IdleWorkload(), "--threads", "2", "--duration", "1500ms", "--no-baseline", "--cpu", "none", "-v", "-o", bundle]);
        Assert.True(capture.Exit == 0, capture.Err);
        var analyze = await RunAsync(environment, ["analyze", bundle, "--force", "-v"]);
        Assert.True(analyze.Exit == 0, analyze.Err);

        var options = CaptureBundle.ReadManifest(Path.Combine(bundle, BundlePaths.Manifest)).Options;
        Assert.StartsWith("Host=127.0.0.1;Port=" + server.Port, options["--server"]);
        Assert.Contains("Username=" + ScramPostgresFixture.Login, options["--server"]);
        var files = Directory.GetFiles(bundle, "*", SearchOption.AllDirectories).ToList();
        Assert.Contains(files, f => f.EndsWith(BundlePaths.Log, StringComparison.Ordinal));
        Assert.Contains(files, f => f.EndsWith(Path.Combine("report", "probe.log"), StringComparison.Ordinal));
        Assert.Contains(files, f => f.EndsWith("report.html", StringComparison.Ordinal));
        files.AddRange(ErrorLogsSince(started));
        AssertNowhere(dryRun.Out + dryRun.Err + check.Out + check.Err + capture.Out + capture.Err + analyze.Out + analyze.Err, files);
    }

    public static TheoryData<string> Refused() => new()
    {
        "host=127.0.0.1 porrt=5432 password=SECRET",
        "host=127.0.0.1 password='SECRET",
        "host=127.0.0.1 service=prod password=SECRET",
        "Host=127.0.0.1 Password=SECRET",
        "postgresql://u:SECRET@127.0.0.1:notaport/db",
        "postgresql://u:SECRET@127.0.0.1/db?nosuchkeyword=1",
        "postgresql://u:SECRET%zz@127.0.0.1/db",
        "Host=127.0.0.1;Password=SECRET;NoSuchKeyword=1",
    };

    [Theory]
    [MemberData(nameof(Refused))]
    public async Task A_form_that_cannot_be_read_is_one_line_and_exit_2_that_never_repeats_it(string form)
    {
        var text = form.Replace("SECRET", ScramPostgresFixture.Password.Replace("'", "", StringComparison.Ordinal).Replace(" ", "", StringComparison.Ordinal).Replace(";", "", StringComparison.Ordinal), StringComparison.Ordinal);
        var bundle = Path.Combine(TestData.TempFolder("server-refused"), "bundle");
        foreach (var args in new[]
        {
            new[] { "capture", "--server", text, "--workload", "noop", "--cpu", "none", "-o", bundle },
            ["capture", "--server", text, "--workload", "noop", "--dry-run", "-o", bundle],
            ["check", "--engine", "postgres", "--server", text],
        })
        {
            var (exit, stdout, stderr) = await RunAsync(new Dictionary<string, string>(), args);
            Assert.True(exit == 2, $"{string.Join(' ', args.Take(2))}: exit {exit}: {stderr}");
            Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
            Assert.StartsWith("probe: ", stderr);
            Assert.DoesNotContain(ScramPostgresFixture.PasswordStem, stdout + stderr);
            Assert.DoesNotContain("   at ", stderr);
        }

        Assert.False(Directory.Exists(bundle));
    }

    private string Server(string form)
    {
        var password = ScramPostgresFixture.Password;
        var libpqQuoted = "'" + password.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("'", "\\'", StringComparison.Ordinal) + "'";
        return form switch
        {
            "npgsql" => server.AdoConnectionString,
            "libpq" => $"host=127.0.0.1 port={server.Port} user={ScramPostgresFixture.Login} password={libpqQuoted} dbname=postgres",
            // Unquoted, with backslash escapes, and spaces around '='; sslmode and connect_timeout mapped too.
            "libpq-escaped" => $"host = 127.0.0.1  port={server.Port} user={ScramPostgresFixture.Login} password={password.Replace("'", "\\'", StringComparison.Ordinal).Replace(" ", "\\ ", StringComparison.Ordinal)} dbname=postgres sslmode=disable connect_timeout=10",
            "uri" => $"postgresql://{ScramPostgresFixture.Login}:{Uri.EscapeDataString(password)}@127.0.0.1:{server.Port}/postgres?sslmode=disable&application_name=probe-uri-test",
            "libpq-password-env" => $"host=127.0.0.1 port={server.Port} user={ScramPostgresFixture.Login} dbname=postgres",
            _ => throw new ArgumentOutOfRangeException(nameof(form)),
        };
    }

    private static void AssertNowhere(string printed, IEnumerable<string> files)
    {
        foreach (var secret in Secrets)
        {
            Assert.DoesNotContain(secret, printed);
        }

        foreach (var file in files)
        {
            var text = File.ReadAllText(file);
            foreach (var secret in Secrets)
            {
                Assert.False(text.Contains(secret, StringComparison.Ordinal), $"{file} holds the password");
            }
        }
    }

    private static IEnumerable<string> Secrets =>
        [ScramPostgresFixture.Password, ScramPostgresFixture.PasswordStem, Uri.EscapeDataString(ScramPostgresFixture.PasswordStem)];

    private static IEnumerable<string> ErrorLogsSince(DateTime started) =>
        new[] { Path.GetTempPath(), RuntimeFolder.Location }.Where(Directory.Exists)
            .SelectMany(d => Directory.EnumerateFiles(d, "probe-error-*.log"))
            .Where(f => File.GetLastWriteTimeUtc(f) >= started);

    private static async Task<(int Exit, string Out, string Err)> RunAsync(IReadOnlyDictionary<string, string> environment, string[] args)
    {
        using var probe = ProbeProcess.Start(environment, args);
        return await probe.WaitAsync(TimeSpan.FromMinutes(3));
    }
}
