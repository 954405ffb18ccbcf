using System.Diagnostics;
using System.Text.RegularExpressions;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// The log of an internal error (exit 70) holds no secret, is readable by its owner only and lives in the private
/// runtime folder; the one line on stderr names it and holds no secret either. Before, <c>/tmp/probe-error-*.log</c>
/// was written with mode 0644 and the whole command line, <c>Password=…</c> included.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class InternalErrorLogTests
{
    private const string Secret = "S3cretPa55word";
    private const string Server = "Host=127.0.0.1;Port=1;Username=probe_user;Password=" + Secret;

    [Fact]
    public async Task The_error_log_masks_connection_string_and_password_env_secrets_and_only_its_owner_can_read_it()
    {
        var variable = "PROBE_TEST_PW_" + Guid.NewGuid().ToString("N")[..8];
        const string fromVariable = "EnvPassw0rd77";
        Environment.SetEnvironmentVariable(variable, fromVariable);
        try
        {
            var console = new TestConsole();
            string[] args = ["capture", "--server", "host=db1 user=me password=" + Secret + " dbname=app", "--password-env", variable, "-o", "/x"];
            var failure = new InvalidOperationException($"the probe broke near Password={Secret} and {fromVariable}", new IOException("inner " + Secret));

            var exit = await InternalError.ReportAsync(console, failure, logFolder: null, args);

            Assert.Equal(70, exit);
            var log = AssertPrivateLog(console.ErrorText, RuntimeFolder.Location, PosixFile.EffectiveUid);
            var text = File.ReadAllText(log);
            Assert.DoesNotContain(fromVariable, text + console.ErrorText);
            Assert.Contains("--password-env " + variable, text);
            Assert.Contains("'host=db1 user=me password=*** dbname=app'", text);
            Assert.Contains("InvalidOperationException: the probe broke near Password=***", text);
            Assert.Contains("IOException: inner ***", text);
            Assert.Matches("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z ", text);
            File.Delete(log);
        }
        finally
        {
            Environment.SetEnvironmentVariable(variable, null);
        }
    }

    [RootFact]
    public async Task As_root_reading_dev_zero_as_the_workload_leaks_no_password()
    {
        var started = DateTime.UtcNow.AddSeconds(-1);
        var output = Path.Combine(TestData.TempFolder("internal-error-root"), "bundle");

        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(3), "capture", "--server", Server, "--sql", "/dev/zero", "-o", output);

        AssertNoLeak(exit, stderr, started, RuntimeFolder.Location, 0);
    }

    [RootFact]
    public async Task As_another_user_an_output_under_a_folder_it_cannot_write_leaks_no_password()
    {
        var started = DateTime.UtcNow.AddSeconds(-1);
        var folder = TestData.TempFolder("internal-error-nobody");
        File.SetUnixFileMode(folder, (UnixFileMode)0b111_101_101);
        var info = new ProcessStartInfo("setpriv") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = "/" };
        foreach (var a in new[] { "--reuid=65534", "--regid=65534", "--clear-groups", "env", "--default-signal=INT,TERM", "HOME=/tmp", "CI=1", "dotnet", ProbeProcess.Dll,
                     "capture", "--server", Server, "--workload", "hashbytes", "-o", Path.Combine(folder, "bundle") })
        {
            info.ArgumentList.Add(a);
        }

        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));

        Assert.DoesNotContain(Secret, await stdout);
        AssertNoLeak(process.ExitCode, await stderr, started, Path.Combine(Path.GetTempPath(), "sqlwaitprobe-65534"), 65534);
    }

    // Whatever the outcome (an internal error today, exit 2 once the mistake is named), nothing shows the password;
    // a log the line names is private; no shared-folder error log of this run holds it.
    private static void AssertNoLeak(int exit, string stderr, DateTime started, string privateFolder, uint owner)
    {
        Assert.NotEqual(0, exit);
        Assert.DoesNotContain(Secret, stderr);
        Assert.DoesNotContain("   at ", stderr);
        if (exit == 70)
        {
            var log = AssertPrivateLog(stderr, privateFolder, owner);
            Assert.Contains("Password=***", File.ReadAllText(log));
            File.Delete(log);
        }

        foreach (var shared in Directory.EnumerateFiles(Path.GetTempPath(), "probe-error-*.log").Where(f => File.GetLastWriteTimeUtc(f) >= started))
        {
            Assert.DoesNotContain(Secret, File.ReadAllText(shared));
        }
    }

    private static string AssertPrivateLog(string stderr, string privateFolder, uint owner)
    {
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries), l => l.StartsWith("probe: internal error", StringComparison.Ordinal));
        var log = Regex.Match(line, "details in (\\S+\\.log), readable only by you").Groups[1].Value;
        Assert.True(log.Length > 0, line);
        Assert.Equal(privateFolder, Path.GetDirectoryName(log));
        Assert.StartsWith(RuntimeFolder.ErrorLogPrefix, Path.GetFileName(log), StringComparison.Ordinal);
        var status = PosixFile.LStat(log);
        Assert.True(status.HasValue, log);
        Assert.Equal(owner, status.Value.Uid);
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(log));
        Assert.DoesNotContain(Secret, File.ReadAllText(log));
        return log;
    }
}
