using System.Diagnostics;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.PerfRecord;

/// <summary>Lost samples come from perf's own count (<c>perf report --stats</c>), which perf script does not print.</summary>
public sealed class PerfLostSamplesTests
{
    [Fact]
    public void The_per_event_lost_samples_of_real_perf_stats_are_read()
    {
        // perf 6.1 on this machine; "perf report --stdio" of the same recording says "Total Lost Samples: 23796".
        Assert.Equal(23796, PerfLostSamples.Parse(File.ReadAllText(TestData.Path("perf-report/local__stats-lost-samples.txt"))));
        Assert.Equal(0, PerfLostSamples.Parse(File.ReadAllText(TestData.Path("perf-report/local__stats-no-loss.txt"))));
        Assert.Null(PerfLostSamples.Parse("perf: command not found"));
    }

    [Fact]
    public async Task A_recording_whose_buffer_overflows_reports_its_lost_samples()
    {
        if (PerfAvailability.Problem() is { } problem)
        {
            Assert.Fail("perf must work on this machine: " + problem);
        }

        // One page of ring buffer per CPU, 64 KiB stack copies at 4 kHz on two busy loops: perf cannot keep up.
        var folder = TestData.TempFolder("perf-lost");
        var data = Path.Combine(folder, "lost.data");
        var busy = Enumerable.Range(0, 2).Select(_ => Process.Start("timeout", ["6", "sh", "-c", "while :; do :; done"])).ToArray();
        try
        {
            using var record = Process.Start(new ProcessStartInfo("perf", ["record", "-q", "-a", "-e", "cpu-clock", "--call-graph", "dwarf,65528", "-F", "4000", "-m", "1", "-o", data, "--", "sleep", "2"]) { RedirectStandardError = true })!;
            await record.StandardError.ReadToEndAsync();
            await record.WaitForExitAsync();
            Assert.Equal(0, record.ExitCode);
        }
        finally
        {
            foreach (var p in busy)
            {
                p.Kill(entireProcessTree: true);
                p.Dispose();
            }
        }

        var lost = await PerfLostSamples.ReadAsync(data, CancellationToken.None);
        Assert.NotNull(lost);
        Assert.True(lost > 0, $"perf lost {lost} samples");
    }
}
