using System.Diagnostics;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>Real PDH counter reads; need Windows.</summary>
public sealed class PdhLiveTests
{
    [WindowsFact]
    public void Every_counter_of_the_set_is_accepted_and_reads_a_value()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        using var query = new PdhQuery(PdhCounterSet.For(Process.GetCurrentProcess().ProcessName));
        Assert.Empty(query.Rejected);
        query.Collect();
        BusyWork.HashFor(TimeSpan.FromSeconds(1), threads: 1);
        query.Collect();
        var values = query.Read();

        Assert.All(values, v => Assert.NotNull(v));
        Assert.InRange(values[0]!.Value, 0, 100);
        Assert.True(values[4] > 10, $"this process hashed for a second but used {values[4]}% CPU");
        Assert.True(values[6] > 0, "available memory should be positive");
    }

    [WindowsFact]
    public async Task A_phase_writes_pdh_csv_that_reads_back_and_series_rows()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        var root = TestData.TempFolder("probe-pdh");
        try
        {
            var process = Process.GetCurrentProcess().ProcessName;
            var collector = new PdhCounterCollector(process, Environment.ProcessId);
            var phase = new PhaseContext("load", 1, root, []);
            await collector.StartAsync(phase, CancellationToken.None);
            BusyWork.HashFor(TimeSpan.FromSeconds(3.5));
            var outcome = await collector.StopAsync(phase, CancellationToken.None);

            Assert.Equal(CollectorStatus.Ok, outcome.Status);
            var pdhPath = Path.Combine(root, BundlePaths.PdhCsv("load"));
            Assert.StartsWith("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"", File.ReadAllText(pdhPath));
            var table = PdhCsvReader.ReadFile(pdhPath);
            Assert.Equal(Environment.MachineName, table.Machine);
            Assert.InRange(table.Rows.Count, 3, 4);

            // The runner writes series.csv once the phase has stopped; the collector hands its rows to the phase.
            var series = phase.Series.Snapshot().Select(p => p.Series).ToHashSet();
            Assert.Superset(new HashSet<string> { "os.cpu.user_pct", "os.cpu.system_pct", "server.cpu.user_pct", "os.mem.available_mb", "os.context_switches_per_sec", "os.run_queue" }, series);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }
}
