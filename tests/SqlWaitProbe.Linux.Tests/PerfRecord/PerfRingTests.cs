using System.Diagnostics;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Linux.OffCpu;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.Linux.PerfRecord;

namespace SqlWaitProbe.Linux.Tests.PerfRecord;

/// <summary>
/// The one perf a watch's windows share, with a real perf: a window's lease starts a segment once the open one is old
/// enough, a dump's cut holds only its span's samples, a segment no lease reaches is deleted, and perf stops with the
/// last lease, leaving nothing behind.
/// </summary>
public sealed class PerfRingTests
{
    [Fact]
    public async Task A_cut_holds_the_samples_of_its_lease_span_and_the_ring_keeps_only_what_a_live_lease_reaches()
    {
        if (PerfAvailability.Problem() is { } problem)
        {
            Assert.Fail("perf must work on this machine: " + problem);
        }

        var scope = new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..8]);
        var ring = new PerfRing(new PerfRecordOptions { Scope = scope, SampleHz = 199, ServerProcess = "postgres", MaxMegabytes = 64 }, TimeSpan.FromMilliseconds(300));
        await using var disposeRing = ring;
        var first = await ring.LeaseAsync(CancellationToken.None);
        var perf = Process.GetProcessById(first.PerfPid);
        var folder = scope.Folder.Path;
        Assert.Contains("--switch-output=signal", await File.ReadAllTextAsync($"/proc/{first.PerfPid}/cmdline"));
        Busy(TimeSpan.FromMilliseconds(400));

        // The open segment is older than the rotation: the second window's lease closes it.
        var second = await ring.LeaseAsync(CancellationToken.None);
        Assert.Equal(first.PerfPid, second.PerfPid);
        var closed = Assert.Single(ring.Segments);
        Assert.True(File.Exists(closed));

        // The first window is thrown away: its segment ended before the second lease began, so no one reaches it.
        await first.ReleaseAsync();
        Assert.Empty(ring.Segments);
        Assert.False(File.Exists(closed));

        Busy(TimeSpan.FromMilliseconds(500));
        var cut = await second.CutAsync(CancellationToken.None);
        Assert.Null(cut.Problem);
        Assert.NotEmpty(cut.Segments);
        Assert.InRange(cut.EndSeconds - cut.StartSeconds, 0.4, 60);
        var script = Path.Combine(Path.GetTempPath(), "ring-" + Guid.NewGuid().ToString("N") + ".script.gz");
        try
        {
            await PerfScriptRunner.WriteGzipAsync(cut.ScriptRuns(), script, "stacks", CancellationToken.None);
            var profile = new StackProfile();
            var times = new PerfScriptReader().ReadSamples(script, profile.Frames, profile.Stacks).Select(s => s.TimestampSeconds).ToList();

            // Samples from the whole span (this process kept a CPU busy through it), and none from before the lease.
            Assert.True(times.Count > 20, $"{times.Count} samples in {cut.EndSeconds - cut.StartSeconds:0.00} s");
            Assert.All(times, t => Assert.InRange(t, cut.StartSeconds, cut.EndSeconds));
            Assert.True(times.Max() - times.Min() > 0.3, $"samples from {times.Min():0.000} to {times.Max():0.000} s");
        }
        finally
        {
            File.Delete(script);
        }

        // The last lease ends: perf stops and its run folder goes with it.
        await second.ReleaseAsync();
        Assert.True(perf.WaitForExit(10_000));
        Assert.Empty(ring.Segments);
        Assert.False(Directory.Exists(folder), "left: " + (Directory.Exists(folder) ? string.Join(", ", Directory.EnumerateFileSystemEntries(folder)) : ""));
    }

    [Fact]
    public async Task Perf_stops_with_the_last_lease_and_a_perf_that_died_is_started_again_by_the_next_lease_while_the_cut_says_so()
    {
        if (PerfAvailability.Problem() is { } problem)
        {
            Assert.Fail("perf must work on this machine: " + problem);
        }

        var scope = new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..8]);
        var ring = new PerfRing(new PerfRecordOptions { Scope = scope, SampleHz = 99, ServerProcess = "postgres", MaxMegabytes = 64 }, TimeSpan.FromMinutes(5));
        await using var disposeRing = ring;

        // Every window ended (the server went away): perf stops and its run folder goes; the next window starts another.
        var first = await ring.LeaseAsync(CancellationToken.None);
        var firstPerf = Process.GetProcessById(first.PerfPid);
        var folder = scope.Folder.Path;
        await first.ReleaseAsync();
        Assert.True(firstPerf.WaitForExit(10_000));
        Assert.False(Directory.Exists(folder));
        var second = await ring.LeaseAsync(CancellationToken.None);
        Assert.NotEqual(first.PerfPid, second.PerfPid);
        var secondFolder = scope.Folder.Path;

        // perf dies under a live lease: that lease's cut says so, the next lease starts perf again.
        var secondPerf = Process.GetProcessById(second.PerfPid);
        Assert.True(Signals.Send(second.PerfPid, Signals.Kill));
        Assert.True(secondPerf.WaitForExit(10_000));
        var third = await ring.LeaseAsync(CancellationToken.None);
        Assert.NotEqual(second.PerfPid, third.PerfPid);
        var thirdPerf = Process.GetProcessById(third.PerfPid);
        var cut = await second.CutAsync(CancellationToken.None);
        Assert.Contains("perf stopped during the window", cut.Problem);
        Assert.Null((await third.CutAsync(CancellationToken.None)).Problem);

        await second.ReleaseAsync();
        await third.ReleaseAsync();
        Assert.True(thirdPerf.WaitForExit(10_000));
        Assert.False(Directory.Exists(secondFolder), "left: " + (Directory.Exists(secondFolder) ? string.Join(", ", Directory.EnumerateFileSystemEntries(secondFolder)) : ""));
    }

    [Theory]
    [InlineData("[ perf record: Dump /run/x/perf-ring-1.data.2026112816442820 ]", "/run/x/perf-ring-1.data.2026112816442820")]
    [InlineData("[ perf record: dump data: Woken up 30 times ]", null)]
    [InlineData("[ perf record: Captured and wrote 0.340 MB /tmp/d.<timestamp> ]", null)]
    public void Perf_s_line_for_a_closed_segment_names_it(string line, string? path) => Assert.Equal(path, PerfRing.DumpedPath(line));

    private static void Busy(TimeSpan span)
    {
        var clock = Stopwatch.StartNew();
        var x = 0L;
        while (clock.Elapsed < span)
        {
            x += clock.ElapsedTicks % 7;
        }

        GC.KeepAlive(x);
    }
}
