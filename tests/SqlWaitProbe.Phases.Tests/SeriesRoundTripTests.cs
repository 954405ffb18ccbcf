using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Pdh;
using SqlWaitProbe.Phases;

namespace SqlWaitProbe.Phases.Tests;

/// <summary>
/// <c>series.csv</c> has one writer, the phase runner: a collector that reports series rows when it stops (as PDH
/// does) must find them in the file. PDH itself needs Windows, so the collector here is a test double that replays
/// recorded PDH samples through the very code the real collector runs after sampling (<see cref="PdhPhaseOutput"/>).
/// </summary>
public sealed class SeriesRoundTripTests
{
    [Fact]
    public async Task Series_rows_a_collector_reports_at_stop_are_in_series_csv_with_the_runners_own()
    {
        var root = TestData.TempFolder();
        var manifest = new ManifestRecorder(new BundleWriter(root), new BundleManifest { RunId = "series1", Engine = "sqlserver" });
        var plan = CapturePlan.Build([2], baseline: false, TimeSpan.FromSeconds(2), null);
        var runner = new PhaseRunner(new InMemoryFakeTarget(TimeSpan.FromMilliseconds(5)), plan,
            _ => [new ReplayedPdhCollector()], manifest, new Progress<string>());

        await runner.RunAsync(CancellationToken.None);
        manifest.Finish(BundleStatus.Complete, null);

        var lines = File.ReadAllLines(Path.Combine(root, BundlePaths.Series(PhaseNames.Load)));
        Assert.Equal(BundleColumns.Header(BundleColumns.Series.All), lines[0]);
        var rows = lines.Skip(1).Select(l => Csv.Split(l)).ToArray();
        Assert.Equal(16, rows.Count(r => r[1].StartsWith("os.", StringComparison.Ordinal) || r[1].StartsWith("server.", StringComparison.Ordinal)));
        Assert.Contains(rows, r => r[1] == "os.cpu.user_pct" && r[2] == "36.5");
        Assert.Contains(rows, r => r[1] == "os.run_queue" && r[2] == "14");
        Assert.Contains(rows, r => r[1] == "workload.executions_per_sec");
        Assert.Single(lines, l => l == lines[0]);
        Assert.True(File.Exists(Path.Combine(root, BundlePaths.PdhCsv(PhaseNames.Load))), "pdh.csv is written next to it");
        Assert.Empty(Directory.EnumerateFiles(root, "*.tmp", SearchOption.AllDirectories));

        using var bundle = CaptureBundle.Open(root);
        Assert.Empty(bundle.VerifyFiles());
    }

    /// <summary>Test double for the PDH collector: replays two recorded samples of a 16-CPU server at stop.</summary>
    private sealed class ReplayedPdhCollector : ICollector
    {
        public string Name => "pdh";

        public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
        {
            var start = phase.StartUtc;
            var table = new PdhTable("H", PdhCounterSet.For("sqlservr"),
            [
                new PdhRow(start.AddSeconds(0.2), [97.5, 61.0, 1.5, 0.3, 700.0, 420.0, 20301, 12, 95012.5, 14]),
                new PdhRow(start.AddSeconds(1.2), [90.0, 50.0, 1.5, 0.3, 600.0, 400.0, 20300, 12, 90000.0, 10]),
            ]);
            PdhPhaseOutput.Write(phase, table, "sqlservr", 16);
            return Task.FromResult(new CollectorOutcome(Name, CollectorStatus.Ok));
        }
    }
}
