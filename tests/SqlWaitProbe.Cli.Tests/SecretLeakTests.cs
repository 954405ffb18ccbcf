using System.Diagnostics;
using System.IO.Compression;
using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A password or token given to the probe reaches no log, manifest, report, bundle, console output or packed zip,
/// on every path a connection string travels: capture, analysis, pack, check, cleanup, and connection failures.
/// </summary>
public sealed class SecretLeakTests
{
    private const string Secret = "Pw-NeverStore-7319";

    [Fact]
    public async Task Postgres_password_stays_out_of_bundle_log_report_console_and_packs()
    {
        await using var server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "p" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions(), new Progress<string>(), CancellationToken.None);
        var cs = new NpgsqlConnectionStringBuilder(server.ConnectionString) { Password = Secret }.ConnectionString;
        var folder = TestData.TempFolder();
        var dir = Path.Combine(folder, "bundle");

        var capture = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2),
            "capture", "--server", cs, "--sql", TestData.IdleWorkload(), "--threads", "2", "--duration", "1500ms", "--no-baseline", "--cpu", "none", "-v", "-o", dir);
        Assert.True(capture.Exit == 0, capture.Err);
        var check = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "check", "--engine", "postgres", "--server", cs, "-v");
        var pack = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "pack", dir, "-o", Path.Combine(folder, "plain.zip"), "-v");
        var redacted = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "pack", dir, "--redact", "-o", Path.Combine(folder, "redacted.zip"), "-v");
        Assert.True(pack.Exit == 0, pack.Err);
        Assert.True(redacted.Exit == 0, redacted.Err);

        foreach (var (exit, stdout, stderr) in new[] { capture, check, pack, redacted })
        {
            Assert.DoesNotContain(Secret, stdout + stderr);
        }

        var files = Directory.GetFiles(dir, "*", SearchOption.AllDirectories);
        Assert.Contains(files, f => f.EndsWith(BundlePaths.Log, StringComparison.Ordinal));
        Assert.Contains(files, f => f.EndsWith("report.html", StringComparison.Ordinal));
        Assert.All(files, f => Assert.DoesNotContain(Secret, File.ReadAllText(f)));
        Assert.Contains("Host=", CaptureBundle.ReadManifest(Path.Combine(dir, BundlePaths.Manifest)).Options["--server"]);
        foreach (var zip in new[] { "plain.zip", "redacted.zip" })
        {
            AssertZipHolds(Path.Combine(folder, zip), Secret, expected: false);
        }
    }

    [Theory]
    [InlineData("Host=127.0.0.1;Port=1;Username=probe;Password=" + Secret + ";Timeout=3")]
    [InlineData("Host=no-such-host.invalid;Username=probe;Password=" + Secret + ";Timeout=3")]
    [InlineData("Host=127.0.0.1;Password=" + Secret + ";NoSuchKeyword=1")]
    public async Task Postgres_connection_failures_never_echo_the_password(string server)
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var capture = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "capture", "--server", server, "--workload", "noop", "--cpu", "none", "-v", "-o", dir);
        var check = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "check", "--engine", "postgres", "--server", server, "-v");

        Assert.InRange(capture.Exit, 1, 2);
        Assert.InRange(check.Exit, 1, 2);
        Assert.DoesNotContain(Secret, capture.Out + capture.Err + check.Out + check.Err);
        Assert.DoesNotContain("   at ", capture.Err + check.Err);
        if (Directory.Exists(dir))
        {
            Assert.All(Directory.GetFiles(dir, "*", SearchOption.AllDirectories), f => Assert.DoesNotContain(Secret, File.ReadAllText(f)));
        }
    }

    [Fact]
    public async Task SqlServer_password_env_stays_out_of_dry_run_check_and_cleanup()
    {
        var environment = new Dictionary<string, string> { ["PROBE_TEST_SECRET"] = Secret };
        var runs = new[]
        {
            Run(environment, "capture", "--engine", "sqlserver", "--server", "localhost", "--user", "sa", "--password-env", "PROBE_TEST_SECRET", "--attach", "--xe", "pages", "--dry-run", "-v"),
            Run(environment, "check", "--engine", "sqlserver", "--server", "Server=127.0.0.1,1;Connect Timeout=2", "--user", "sa", "--password-env", "PROBE_TEST_SECRET", "-v"),
            Run(environment, "cleanup", "--dry-run", "--server", "Server=127.0.0.1,1;Connect Timeout=2", "--user", "sa", "--password-env", "PROBE_TEST_SECRET", "-v"),
            Run(environment, "cleanup", "--dry-run", "--server", "Server=127.0.0.1,1;User ID=sa;Password=" + Secret + ";Connect Timeout=2", "-v"),
            Run(environment, "check", "--engine", "sqlserver", "--server", "Server=127.0.0.1,1;User ID=sa;Password=" + Secret + ";Connect Timeout=2", "-v"),
        };

        Assert.Equal(0, runs[0].Exit);
        Assert.Contains("CREATE EVENT SESSION", runs[0].Out);
        foreach (var (exit, stdout, stderr) in runs)
        {
            Assert.DoesNotContain(Secret, stdout + stderr);
            Assert.DoesNotContain("   at ", stderr);
        }

        Assert.All(runs.Skip(1), r => Assert.NotEqual(0, r.Exit));
    }

    private static void AssertZipHolds(string zip, string text, bool expected)
    {
        using var archive = ZipFile.OpenRead(zip);
        Assert.NotEmpty(archive.Entries);
        foreach (var entry in archive.Entries)
        {
            using var reader = new StreamReader(entry.Open());
            Assert.Equal(expected, reader.ReadToEnd().Contains(text, StringComparison.Ordinal));
        }
    }

    private static (int Exit, string Out, string Err) Run(IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true };
        start.ArgumentList.Add(ProbeProcess.Dll);
        foreach (var a in args)
        {
            start.ArgumentList.Add(a);
        }

        start.Environment["CI"] = "1";
        foreach (var (k, v) in environment)
        {
            start.Environment[k] = v;
        }

        using var process = Process.Start(start)!;
        process.StandardInput.Close();
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        Assert.True(process.WaitForExit(60_000), "probe did not finish in a minute");
        return (process.ExitCode, stdout.Result, stderr.Result);
    }
}
