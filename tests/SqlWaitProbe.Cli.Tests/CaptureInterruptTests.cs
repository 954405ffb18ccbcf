using System.Diagnostics;
using System.Runtime.InteropServices;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

public sealed class CaptureInterruptTests
{
    [Theory]
    [InlineData(2, "ctrl-c")]
    [InlineData(15, "sigterm")]
    public async Task A_signal_ends_the_capture_within_10_seconds_and_leaves_nothing_running(int signal, string reason)
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        using var probe = ProbeProcess.Start("capture", "--workload", "hashbytes", "--threads", "2", "--duration", "60s", "--scale", "0.05", "-o", dir);

        // Wait until the workload is set up, then let the baseline phase run with its collectors.
        var manifestPath = Path.Combine(dir, "manifest.json");
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < TimeSpan.FromSeconds(30) && !File.Exists(Path.Combine(dir, "workload.sql")))
        {
            await Task.Delay(100);
        }

        await Task.Delay(3000);
        Assert.Equal(0, Kill(probe.Id, signal));
        var sent = Stopwatch.StartNew();
        var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(sent.Elapsed < TimeSpan.FromSeconds(10));
        Assert.True(exit == 130, stderr);

        var manifest = CaptureBundle.ReadManifest(manifestPath);
        Assert.Equal(BundleStatus.Interrupted, manifest.Status);
        Assert.Equal(reason, manifest.Reason);
        Assert.NotEmpty(manifest.Phases);
        Assert.False(Directory.Exists(Path.Combine(Path.GetTempPath(), EmbeddedPostgres.FolderPrefix + manifest.RunId)));
        Assert.Empty(CaptureEndToEndTests.ProcessesMentioning(manifest.RunId));
    }

    [DllImport("libc", EntryPoint = "kill")]
    private static extern int Kill(int pid, int signal);
}
