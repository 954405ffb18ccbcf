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

        var (exit, stdout, stderr) = await RunAsNobodyAsync([], "capture", "--server", Server, "--workload", "hashbytes", "-o", Path.Combine(folder, "bundle"));

        Assert.DoesNotContain(Secret, stdout);
        AssertNoLeak(exit, stderr, started, Path.Combine(Path.GetTempPath(), "sqlwaitprobe-65534"), 65534);
    }

    /// <summary>
    /// An internal error of a user who is not root: the log goes into that user's own private folder, owned by the
    /// user and readable by nobody else, without the password. The error is a real one, not staged: the managed heap
    /// is held to 64 MiB (as a container's memory limit would), and the dry run of a workload SQL file just under the
    /// 16 MiB limit runs out of memory.
    /// </summary>
    [RootFact]
    public async Task As_a_user_who_is_not_root_an_internal_error_log_is_private_to_that_user_and_holds_no_password()
    {
        var started = DateTime.UtcNow.AddSeconds(-1);
        var folder = TestData.TempFolder("internal-error-user");
        File.SetUnixFileMode(folder, (UnixFileMode)0b111_101_101);
        var temp = Path.Combine(folder, "tmp");
        Directory.CreateDirectory(temp);
        File.SetUnixFileMode(temp, (UnixFileMode)0b1_111_111_111);
        var sql = Path.Combine(folder, "workload.sql");
        File.WriteAllText(sql, string.Concat(Enumerable.Repeat("SELECT 1; -- " + new string('x', 80) + "\n", 170_000)));
        File.SetUnixFileMode(sql, (UnixFileMode)0b110_100_100);

        var (exit, stdout, stderr) = await RunAsNobodyAsync(
            [$"TMPDIR={temp}", "DOTNET_GCHeapHardLimit=0x4000000"],
            "capture", "--engine", "postgres", "--server", Server, "--sql", sql, "--dry-run");

        Assert.True(exit == 70, $"exit {exit}: {stderr}");
        Assert.DoesNotContain(Secret, stdout);
        var privateFolder = Path.Combine(temp, "sqlwaitprobe-65534");
        Assert.Equal(65534u, PosixFile.LStat(privateFolder)!.Value.Uid);
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute, File.GetUnixFileMode(privateFolder));
        AssertNoLeak(exit, stderr, started, privateFolder, 65534);
        Assert.Empty(Directory.GetFiles(temp));
    }

    private static async Task<(int Exit, string Out, string Err)> RunAsNobodyAsync(string[] environment, params string[] args)
    {
        var info = new ProcessStartInfo("setpriv") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = "/" };
        string[] command = ["--reuid=65534", "--regid=65534", "--clear-groups", "env", "--default-signal=INT,TERM", "HOME=/tmp", "CI=1", .. environment, "dotnet", ProbeProcess.Dll, .. args];
        foreach (var a in command)
        {
            info.ArgumentList.Add(a);
        }

        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
        return (process.ExitCode, await stdout, await stderr);
    }

    // Whatever the outcome (exit 2 now that the mistake is named, or an internal error), nothing shows the password;
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
