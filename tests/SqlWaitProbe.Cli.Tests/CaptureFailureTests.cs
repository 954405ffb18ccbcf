using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A capture whose every execution fails ends <c>failed</c> with exit 1 and the first real error; one where only
/// some fail completes as before and says how many failed. Real PostgreSQL (embedded).
/// </summary>
public sealed class CaptureFailureTests
{
    [Fact]
    public async Task Sql_that_always_errors_fails_the_capture_with_the_servers_message()
    {
        var (dir, exit, stdout, stderr) = await CaptureAsync("SELECT 1 / (random() * 0)::int"u8.ToArray());

        Assert.True(exit == 1, stderr);
        var last = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)[^1];
        Assert.StartsWith("probe: every execution of the workload failed (", last);
        Assert.Contains("the first error: 22012: division by zero", last);
        Assert.DoesNotContain("   at ", stderr);
        Assert.DoesNotContain("report:", stdout);
        var manifest = CaptureBundle.ReadManifest(Path.Combine(dir, BundlePaths.Manifest));
        Assert.Equal(BundleStatus.Failed, manifest.Status);
        Assert.Contains("division by zero", manifest.Reason);
        Assert.All(manifest.Phases, p => Assert.Equal(p.Executions, p.Errors));
    }

    [Fact]
    public async Task A_binary_sql_file_fails_the_capture_with_the_first_error_not_a_follow_on()
    {
        var (dir, exit, _, stderr) = await CaptureAsync([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0x3e, 0, 0xff, 0xfe, 0x80, 0x81, 0x01, 0x02], "--no-baseline");

        Assert.True(exit is 1 or 2, stderr);
        Assert.DoesNotContain("Connection is not open", stderr);
        Assert.DoesNotContain("unexpected", stderr);
        Assert.DoesNotContain("   at ", stderr);
        if (File.Exists(Path.Combine(dir, BundlePaths.Manifest)))
        {
            Assert.NotEqual(BundleStatus.Complete, CaptureBundle.ReadManifest(Path.Combine(dir, BundlePaths.Manifest)).Status);
        }
    }

    [Fact]
    public async Task Some_failed_executions_complete_the_capture_and_say_how_many_failed()
    {
        var (dir, exit, stdout, stderr) = await CaptureAsync("SELECT 1 / (random() >= 0.3)::int"u8.ToArray(), "--no-baseline", "--no-analyze");

        Assert.True(exit == 0, stderr);
        var line = Assert.Single(stdout.Split('\n'), l => l.StartsWith("errors: ", StringComparison.Ordinal));
        Assert.Matches(@"^errors: \d+ of \d+ executions failed; the first error: 22012: division by zero", line);
        Assert.Equal(BundleStatus.Complete, CaptureBundle.ReadManifest(Path.Combine(dir, BundlePaths.Manifest)).Status);
    }

    // A capture of the SQL in a file of these bytes, 2 sessions for 2 s, on the embedded server without CPU stacks.
    private static async Task<(string Bundle, int Exit, string Out, string Err)> CaptureAsync(byte[] sql, params string[] extra)
    {
        var folder = TestData.TempFolder();
        var file = Path.Combine(folder, "workload.sql");
        File.WriteAllBytes(file, sql);
        var dir = Path.Combine(folder, "bundle");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(120),
            ["capture", "--sql", file, "--threads", "2", "--duration", "2s", "--cpu", "none", .. extra, "-o", dir]);
        return (dir, exit, stdout, stderr);
    }
}
