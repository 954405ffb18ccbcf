using System.Diagnostics;
using SqlWaitProbe.Capture;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>The capture limits: free disk at start and while running, --max-duration, --max-perf-mb, --max-xe-mb.</summary>
public sealed class CaptureLimitsTests
{
    private const string Huge = "2000000000";

    [Fact]
    public async Task Postgres_capture_refuses_to_start_below_min_free_disk()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), "capture", "--workload", "noop", "--cpu", "none", "--min-free-disk-mb", Huge, "-o", dir);

        Assert.Equal(1, exit);
        Assert.Contains("--min-free-disk-mb is " + Huge, stderr);
        Assert.InRange(stderr.Trim().Split('\n').Length, 1, 2);
        Assert.False(Directory.Exists(dir), "nothing is written when the capture refuses to start");
    }

    [Fact]
    public async Task SqlServer_capture_refuses_to_start_below_min_free_disk_before_connecting()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60),
            "capture", "--engine", "sqlserver", "--server", "Server=127.0.0.1,1;Connect Timeout=2", "--attach", "--duration", "2s", "--min-free-disk-mb", Huge, "-o", dir);

        Assert.Equal(1, exit);
        Assert.Contains("--min-free-disk-mb is " + Huge, stderr);
        Assert.DoesNotContain("Cannot reach", stderr);
        Assert.False(Directory.Exists(dir));
    }

    [Fact]
    public async Task Disk_watch_stops_a_running_capture_within_two_seconds_of_the_threshold()
    {
        var folder = TestData.TempFolder();
        using var stopped = new SemaphoreSlim(0);
        var calls = 0;
        var clock = Stopwatch.StartNew();
        using (DiskSpace.Watch(folder, long.MaxValue / (1024 * 1024), () =>
        {
            Interlocked.Increment(ref calls);
            stopped.Release();
        }))
        {
            Assert.True(await stopped.WaitAsync(TimeSpan.FromSeconds(5)), "the watch never fired");
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(2.5), $"fired after {clock.Elapsed}");
            await Task.Delay(TimeSpan.FromSeconds(2.2));
        }

        Assert.Equal(1, calls);
        Assert.NotNull(DiskSpace.FreeMegabytes(Path.Combine(folder, "not", "yet", "created")));
    }

    [SmallDiskFact]
    public async Task A_disk_filling_up_during_a_capture_stops_it_as_interrupted_with_reason_disk_and_keeps_the_bundle()
    {
        using var disk = SmallDiskFactAttribute.Mount(300);
        var dir = Path.Combine(disk.Folder, "bundle");
        using var probe = ProbeProcess.Start(
            "capture", "--workload", "noop", "--threads", "2", "--duration", "60s", "--no-baseline", "--cpu", "none", "--min-free-disk-mb", "150", "-o", dir);

        // Once the load phase runs, another process fills the disk to a few MB: below the threshold, and too
        // little for the phase's executions.csv, so the capture also meets a full disk while writing.
        var log = Path.Combine(dir, BundlePaths.Log);
        var clock = Stopwatch.StartNew();
        while (!(File.Exists(log) && File.ReadAllText(log).Contains("embedded PostgreSQL ready", StringComparison.Ordinal)) && clock.Elapsed < TimeSpan.FromSeconds(60))
        {
            await Task.Delay(200);
        }

        await Task.Delay(3000);
        var filled = Stopwatch.StartNew();
        disk.FillLeaving(4 * 1024 * 1024);

        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(90));

        Assert.True(filled.Elapsed < TimeSpan.FromSeconds(30), $"stopped {filled.Elapsed} after the disk filled");
        FullDiskTests.AssertEndedByTheDisk(dir, exit, stdout, stderr);
    }

    [Fact]
    public async Task Max_duration_stops_the_capture_as_interrupted_and_the_bundle_analyses()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var clock = Stopwatch.StartNew();
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(90),
            "capture", "--sql", TestData.IdleWorkload(), "--threads", "2", "--duration", "60s", "--no-baseline", "--cpu", "none", "--max-duration", "6s", "-o", dir);

        Assert.True(exit == 130, stderr);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(40), $"took {clock.Elapsed}");
        var manifest = CaptureBundle.ReadManifest(Path.Combine(dir, BundlePaths.Manifest));
        Assert.Equal(BundleStatus.Interrupted, manifest.Status);
        Assert.Equal("max-duration", manifest.Reason);
        Assert.True(File.Exists(Path.Combine(dir, "report", "report.html")), "the interrupted capture is analysed");
    }

    [Fact]
    public async Task Max_perf_mb_stops_perf_at_the_cap_and_marks_it_partial()
    {
        // DWARF samples are about 8.9 KB each: 1 MB is about 118 samples, a tenth of a second of 2 CPUs at 499 Hz, so
        // the cap is reached many times over within the phase however busy the machine is (frame-pointer samples at a
        // high rate depended on the kernel not throttling the rate, and on perf keeping up).
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(120),
            "capture", "--workload", "hashbytes", "--scale", "0.05", "--threads", "2", "--duration", "4s", "--no-baseline",
            "--cpu", "perf", "--call-graph", "dwarf", "--max-perf-mb", "1", "--no-analyze", "-o", dir);

        Assert.True(exit == 0, stderr);
        var manifest = CaptureBundle.ReadManifest(Path.Combine(dir, BundlePaths.Manifest));
        var perf = manifest.Collectors.Single(c => c.Name == "perf");
        Assert.Equal("partial", perf.Status);
        Assert.Contains("--max-perf-mb (1 MB)", perf.Error);
        Assert.True(File.Exists(Path.Combine(dir, BundlePaths.PerfScript("load"))), "what perf recorded up to the cap is kept");
    }

    [Fact]
    public async Task Xe_dry_run_shows_the_file_target_capped_by_max_xe_mb()
    {
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60),
            "capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--duration", "10s", "--xe", "pages", "--max-xe-mb", "40", "--dry-run");

        Assert.True(exit == 0, stderr);
        Assert.Contains("max_file_size = (10), max_rollover_files = (4)", stdout);
    }
}
