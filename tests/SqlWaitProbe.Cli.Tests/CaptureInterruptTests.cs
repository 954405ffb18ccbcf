using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Ctrl+C and SIGTERM at different moments of a real PostgreSQL capture (embedded server, perf), and Ctrl+C during
/// the analysis of a large bundle: exit 130 within 10 s, nothing of the run left running, and the interrupted
/// bundle analyses.
/// </summary>
[Collection(TimingCollection.Name)]
public sealed class CaptureInterruptTests
{
    [Theory]
    [InlineData(2, "ctrl-c", "setup")]
    [InlineData(2, "ctrl-c", "baseline")]
    [InlineData(15, "sigterm", "baseline")]
    [InlineData(2, "ctrl-c", "load")]
    public async Task A_signal_ends_the_capture_within_10_seconds_and_leaves_nothing_running(int signal, string reason, string moment)
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        using var probe = ProbeProcess.Start("capture", "--workload", "hashbytes", "--threads", "2", "--duration", moment == "load" ? "4s" : "60s", "--scale", "0.05", "-o", dir);
        var manifestPath = Path.Combine(dir, "manifest.json");
        await WaitForMoment(dir, moment);

        Assert.Equal(0, Kill(probe.Id, signal));
        var sent = Stopwatch.StartNew();
        var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(sent.Elapsed < TimeSpan.FromSeconds(10));
        Assert.True(exit == 130, stderr);
        Assert.DoesNotContain("   at ", stderr);

        var manifest = CaptureBundle.ReadManifest(manifestPath);
        Assert.Equal(BundleStatus.Interrupted, manifest.Status);
        Assert.Equal(reason, manifest.Reason);
        switch (moment)
        {
            case "setup":
                Assert.Empty(manifest.Phases);
                break;
            case "baseline":
                Assert.Equal(["baseline"], manifest.Phases.Select(p => p.Name));
                break;
            default:
                Assert.Equal(["baseline", "load"], manifest.Phases.Select(p => p.Name));
                Assert.True(manifest.Phases[1].Executions > 0, "the executions of the interrupted load phase are kept");
                break;
        }

        Assert.False(Directory.Exists(Path.Combine(Path.GetTempPath(), EmbeddedPostgres.FolderPrefix + manifest.RunId)));
        Assert.Empty(CaptureEndToEndTests.ProcessesMentioning(manifest.RunId));
        Assert.Empty(Directory.GetFiles(Path.GetTempPath(), "probe-perf-" + manifest.RunId + "*"));

        // The interrupted bundle is evidence: it analyses like any other.
        var report = Path.Combine(TestData.TempFolder(), "report");
        var analysed = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(90), "analyze", dir, "-o", report);
        Assert.True(analysed.Exit == 0, analysed.Err);
        Assert.Contains("interrupted", analysed.Out);
        Assert.True(File.Exists(Path.Combine(report, "report.html")));
    }

    [Fact]
    public async Task A_killed_capture_leaves_only_what_probe_cleanup_removes()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var runtime = Path.Combine(TestData.TempFolder(), "runtime");
        var env = new Dictionary<string, string> { [RuntimeFolder.OverrideVariable] = runtime };
        using var probe = ProbeProcess.Start(env, "capture", "--workload", "hashbytes", "--threads", "2", "--duration", "60s", "--scale", "0.05", "-o", dir);
        await WaitForMoment(dir, "baseline");
        var runId = CaptureBundle.ReadManifest(Path.Combine(dir, "manifest.json")).RunId;
        Assert.NotEmpty(CaptureEndToEndTests.ProcessesMentioning(runId));

        // SIGKILL: no handler runs, so the embedded server and perf record outlive the probe.
        Assert.Equal(0, Kill(probe.Id, 9));
        await probe.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.NotEmpty(CaptureEndToEndTests.ProcessesMentioning(runId));

        // The dry run names every process (pid, executable, start time) and every file it would touch.
        using (var dry = ProbeProcess.Start(env, "cleanup", "--dry-run"))
        {
            var (dryExit, dryOut, dryErr) = await dry.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.True(dryExit == 0, dryErr);
            Assert.Contains($"capture run {runId} of probe pid {probe.Id} ", dryOut);
            Assert.Matches(@"would stop pid \d+ \(/\S+/postgres, started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)", dryOut);
            Assert.Contains($"would delete folder {Path.GetTempPath()}{EmbeddedPostgres.FolderPrefix}{runId}-", dryOut);
            Assert.Contains("/resource-embedded-postgres.json", dryOut);
            Assert.NotEmpty(CaptureEndToEndTests.ProcessesMentioning(runId));
        }

        using var cleanup = ProbeProcess.Start(env, "cleanup");
        var (exit, stdout, stderr) = await cleanup.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(exit == 0, stderr);
        Assert.Contains(runId, stdout);
        var waited = Stopwatch.StartNew();
        while (CaptureEndToEndTests.ProcessesMentioning(runId).Count > 0 && waited.Elapsed < TimeSpan.FromSeconds(10))
        {
            await Task.Delay(100);
        }

        Assert.Empty(CaptureEndToEndTests.ProcessesMentioning(runId));
        Assert.Empty(Directory.GetDirectories(Path.GetTempPath(), EmbeddedPostgres.FolderPrefix + runId + "*"));
        Assert.Empty(Directory.GetFileSystemEntries(runtime));
    }

    [Fact]
    public async Task Ctrl_c_during_analysis_of_a_large_bundle_exits_130_within_10_seconds_without_a_report()
    {
        var root = LargeBundle();
        var report = Path.Combine(Path.GetDirectoryName(root)!, "report");
        using var probe = ProbeProcess.Start("analyze", root, "-o", report);

        // The signal goes once the analysis is under way (its progress line), not after a fixed wait: on a busy machine
        // the runtime's start alone can take longer, and a signal before the handlers exist would prove nothing.
        Assert.True(await probe.WaitForErrorAsync(e => e.Contains("analysing", StringComparison.Ordinal), TimeSpan.FromSeconds(60)), "the analysis never started");

        Assert.Equal(0, Kill(probe.Id, 2));
        var sent = Stopwatch.StartNew();
        var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(sent.Elapsed < TimeSpan.FromSeconds(10));
        Assert.True(exit == 130, $"exit {exit}: {stderr}");
        Assert.DoesNotContain("   at ", stderr);
        Assert.False(File.Exists(Path.Combine(report, "report.html")), "an interrupted analysis leaves no report that looks complete");
    }

    private static string ReadShared(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        return new StreamReader(stream).ReadToEnd();
    }

    private static async Task WaitForMoment(string dir, string moment)
    {
        var waited = Stopwatch.StartNew();
        var marker = Path.Combine(dir, moment == "setup" ? "manifest.json" : "workload.sql");
        while (waited.Elapsed < TimeSpan.FromSeconds(40) && !File.Exists(marker))
        {
            await Task.Delay(50);
        }

        Assert.True(File.Exists(marker), $"{marker} never appeared");
        switch (moment)
        {
            case "setup":
                // The embedded server is being created and started (initdb alone takes longer than this).
                await Task.Delay(300);
                Assert.False(File.Exists(Path.Combine(dir, "workload.sql")), "setup was already over");
                break;
            default:
                // Inside the phase's window with an execution done: its once-a-second progress line in capture.log says
                // so (measured, not timed: a busy machine stretches the server's start and the pilot before the phase,
                // and a fixed wait once sent the signal before the baseline had begun).
                var log = Path.Combine(dir, BundlePaths.Log);
                var collecting = new System.Text.RegularExpressions.Regex($@"phase {moment}: \d+ sessions?, [^,]*, [1-9]\d* executions? \(collecting\)");
                while (waited.Elapsed < TimeSpan.FromSeconds(120) && !(File.Exists(log) && collecting.IsMatch(ReadShared(log))))
                {
                    await Task.Delay(50);
                }

                Assert.True(File.Exists(log) && collecting.IsMatch(ReadShared(log)), $"the {moment} phase never ran an execution");
                break;
        }
    }

    /// <summary>A bundle whose stacks take the analysis well past a second: many distinct deep stacks in two phases.</summary>
    internal static string LargeBundle()
    {
        var bundle = new CraftedBundle("postgres", "postgres")
            .Phase("baseline", 1, 500, 2).Sessions("baseline", 900)
            .Phase("load", 8, 500, 6).Sessions("load", 20000);
        var root = bundle.Write();
        foreach (var phase in new[] { "baseline", "load" })
        {
            var text = new StringBuilder();
            var random = new Random(phase.Length);
            for (var i = 0; i < 400_000; i++)
            {
                text.Append("postgres;main;PostmasterMain;ServerLoop;PostgresMain;exec_simple_query");
                var depth = 4 + random.Next(20);
                for (var d = 0; d < depth; d++)
                {
                    text.Append(";fn_").Append(random.Next(3000).ToString(CultureInfo.InvariantCulture));
                }

                text.Append(' ').Append((1 + random.Next(50)).ToString(CultureInfo.InvariantCulture)).Append('\n');
            }

            var path = Path.Combine(root, BundlePaths.Stacks(phase));
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, text.ToString());
        }

        BundleEdit.Rehash(root);
        return root;
    }

    [DllImport("libc", EntryPoint = "kill")]
    private static extern int Kill(int pid, int signal);
}
