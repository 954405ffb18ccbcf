using System.Diagnostics;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Every path that meets a full disk ends as docs/reliability.md says: a capture as <c>interrupted</c>, reason
/// <c>disk</c>, exit 130, with nothing of its own still running; a command that writes an output with exit 2, one line
/// and no output, partial or <c>.tmp</c>. Each runs on a small tmpfs of its own (root only).
/// </summary>
[Collection(TimingCollection.Name)]
public sealed class FullDiskTests
{
    [SmallDiskFact]
    public async Task With_the_free_disk_watch_off_a_disk_that_fills_ends_the_capture_as_interrupted_and_leaves_nothing_running()
    {
        using var disk = SmallDiskFactAttribute.Mount(300);
        var dir = Path.Combine(disk.Folder, "bundle");
        using var probe = ProbeProcess.Start(
            "capture", "--workload", "noop", "--threads", "2", "--duration", "8s", "--no-baseline", "--cpu", "perf", "--sample-hz", "99",
            "--min-free-disk-mb", "0", "-o", dir);

        // Once the load phase runs, another process fills the disk to the last byte: with the watch off, the capture
        // learns of it only when its next write fails (the phase's files, perf script's output).
        var log = Path.Combine(dir, BundlePaths.Log);
        var clock = Stopwatch.StartNew();
        while (!(File.Exists(log) && File.ReadAllText(log).Contains("embedded PostgreSQL ready", StringComparison.Ordinal)) && clock.Elapsed < TimeSpan.FromSeconds(90))
        {
            await Task.Delay(200);
        }

        await Task.Delay(3000);
        disk.FillLeaving(0);
        Assert.True(new DriveInfo(disk.Folder).AvailableFreeSpace < 64 * 1024, "the disk is full");

        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(120));

        var manifest = AssertEndedByTheDisk(dir, exit, stdout, stderr);

        // Neither perf record, perf script nor the embedded server outlives the probe.
        Assert.Empty(CaptureEndToEndTests.ProcessesMentioning(manifest.RunId));
    }

    [SmallDiskFact]
    public async Task Analyze_pack_and_the_stack_verbs_on_a_full_disk_exit_2_with_one_line_and_leave_no_output()
    {
        var bundle = new CraftedBundle("postgres", "postgres")
            .Phase("load", threads: 2, executionsPerSession: 50, msEach: 10)
            .Sessions("load", cpuMs: 600)
            .Stack("load", "postgres;postgres!PostgresMain;postgres!ExecAgg;libcrypto.so.3!sha256_block_data_order", 600)
            .Stack("load", "postgres;postgres!PostgresMain;libc.so.6!memcpy", 400)
            .Write();
        var perf = TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz");
        using var disk = SmallDiskFactAttribute.Mount(8);
        disk.FillLeaving(0);
        var before = Entries(disk.Folder);

        string[][] commands =
        [
            ["analyze", bundle, "-o", Path.Combine(disk.Folder, "report")],
            ["pack", bundle, "-o", Path.Combine(disk.Folder, "bundle.zip")],
            ["stacks", "fold", perf, "-o", Path.Combine(disk.Folder, "out.folded")],
            ["stacks", "flamegraph", perf, "-o", Path.Combine(disk.Folder, "out.svg")],
            ["stacks", "speedscope", perf, "-o", Path.Combine(disk.Folder, "out.speedscope.json")],
            ["stacks", "diff", TestData.Path("perf-script/local__pg15-digest-2sessions-dwarf.perf.txt.gz"), perf, "-o", Path.Combine(disk.Folder, "diff.svg")],
            ["stacks", "pprof", perf, "-o", Path.Combine(disk.Folder, "out.pb.gz")],
            ["stacks", "chrome-trace", perf, "-o", Path.Combine(disk.Folder, "out.trace.json")],
        ];
        foreach (var args in commands)
        {
            var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2), args);
            var what = string.Join(' ', args.Take(2));

            Assert.True(exit == 2, $"{what}: exit {exit}: {stderr}");
            // Progress lines (plain, time-stamped) may come first; the error is one line.
            var lines = stderr.Trim().Split('\n').Where(l => l.StartsWith("probe:", StringComparison.Ordinal)).ToArray();
            Assert.True(lines.Length == 1, $"{what}: {stderr}");
            Assert.Contains("the disk is full", lines[0]);
            Assert.DoesNotContain("unexpected error", stderr);
            Assert.Equal(before, Entries(disk.Folder));
        }
    }

    /// <summary>What a capture that met a full disk shows the user: exit 130, interrupted by the disk, a bundle that verifies, no temporary or reserve file.</summary>
    internal static BundleManifest AssertEndedByTheDisk(string dir, int exit, string stdout, string stderr)
    {
        Assert.True(exit == 130, $"exit {exit}: {stderr}");
        Assert.DoesNotContain("unexpected error", stderr);
        Assert.Contains("interrupted: disk", stdout);
        var manifest = CaptureBundle.ReadManifest(Path.Combine(dir, BundlePaths.Manifest));
        Assert.Equal(BundleStatus.Interrupted, manifest.Status);
        Assert.Equal("disk", manifest.Reason);
        Assert.Empty(Directory.GetFiles(dir, "*.tmp", SearchOption.AllDirectories));
        Assert.False(File.Exists(Path.Combine(dir, DiskReserve.FileName)), "the space set aside is given back");
        using var bundle = CaptureBundle.Open(dir);
        Assert.Empty(bundle.VerifyFiles());
        return manifest;
    }

    private static string[] Entries(string folder) =>
        [.. Directory.EnumerateFileSystemEntries(folder, "*", SearchOption.AllDirectories).Select(Path.GetFileName).Order(StringComparer.Ordinal)!];
}
