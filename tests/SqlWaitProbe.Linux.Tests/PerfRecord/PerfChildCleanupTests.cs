using System.Diagnostics;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Linux.PerfRecord;

namespace SqlWaitProbe.Linux.Tests.PerfRecord;

public sealed class PerfChildCleanupTests
{
    [Fact]
    public async Task Cleanup_stops_the_recorded_perf_of_a_killed_probe_and_deletes_its_data()
    {
        if (PerfAvailability.Problem() is { } problem)
        {
            Assert.Fail("perf must work on this machine: " + problem);
        }

        var child = PerfChild.Prepare(new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..8]), "perf-load", "perf record of a test");
        var runFolder = Path.GetDirectoryName(child.DataPath)!;

        // The record exists before perf does: a cleanup now would find nothing to signal, and the run is live anyway.
        Assert.True(File.Exists(Path.Combine(runFolder, RunFolder.ResourcePrefix + "perf-load.json")));
        using var perf = child.Start(["record", "-a", "-F", "99", "-o", child.DataPath], "perf record of a test");
        try
        {
            perf.StandardInput.Close();
            var waited = Stopwatch.StartNew();
            while (!(File.Exists(child.DataPath) && new FileInfo(child.DataPath).Length > 0) && waited.Elapsed < TimeSpan.FromSeconds(10))
            {
                await Task.Delay(50);
            }

            // perf's environment holds nothing of the probe's beyond what it needs.
            var environ = await File.ReadAllTextAsync($"/proc/{perf.Id}/environ");
            Assert.DoesNotContain("PGPASSWORD", environ);
            Assert.DoesNotContain(RuntimeFolder.OverrideVariable, environ);

            var markerPath = Path.Combine(runFolder, RunMarker.FileName);
            var marker = TrustedJson.Read<RunMarker>(markerPath)!;
            TrustedJson.Write(markerPath, marker with { Owner = marker.Owner! with { Pid = 3_999_999 } });
            var cleaner = new RuntimeCleaner();
            var leftover = Assert.Single(await cleaner.FindAsync(CancellationToken.None), l => l.Id == runFolder);
            Assert.Contains(leftover.Actions, a => a.StartsWith($"stop pid {perf.Id} (", StringComparison.Ordinal) && a.Contains("perf, started ", StringComparison.Ordinal));
            Assert.Contains("delete " + child.DataPath, leftover.Actions);

            var done = await cleaner.RemoveAsync(leftover, CancellationToken.None);
            Assert.Contains($"stopped pid {perf.Id}", done);
            Assert.True(perf.WaitForExit(10_000));
            Assert.False(Directory.Exists(runFolder));
        }
        finally
        {
            if (!perf.HasExited)
            {
                perf.Kill();
            }

            child.Finish();
        }
    }
}
