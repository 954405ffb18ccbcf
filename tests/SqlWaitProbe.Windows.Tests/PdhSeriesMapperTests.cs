using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows.Tests;

public sealed class PdhSeriesMapperTests
{
    private static readonly DateTime T0 = new(2026, 3, 14, 9, 0, 0, DateTimeKind.Utc);

    [Fact]
    public void Counters_become_the_bundle_series_with_process_cpu_normalised_to_the_machine()
    {
        var table = new PdhTable("H", PdhCounterSet.For("sqlservr"),
        [
            // 16 CPUs: sqlservr uses 7 cores, 4.2 of them in kernel mode.
            new PdhRow(T0, [97.5, 61.0, 1.5, 0.3, 700.0, 420.0, 20301, 12, 95012.5, 14]),
        ]);

        var points = PdhSeriesMapper.Map(table, "sqlservr", 16).ToDictionary(p => p.Series, p => p.Value);

        Assert.Equal(36.5, points["os.cpu.user_pct"], 9);
        Assert.Equal(61.0, points["os.cpu.system_pct"], 9);
        Assert.Equal(2.5, points["os.cpu.idle_pct"], 9);
        Assert.Equal(280.0 / 16, points["server.cpu.user_pct"], 9);
        Assert.Equal(420.0 / 16, points["server.cpu.system_pct"], 9);
        Assert.Equal(95012.5, points["os.context_switches_per_sec"]);
        Assert.Equal(14, points["os.run_queue"]);
        Assert.Equal(20301, points["os.mem.available_mb"]);
        Assert.Equal(8, points.Count);
    }

    [Fact]
    public void Missing_values_give_no_point_and_the_server_counters_follow_the_process_name()
    {
        var counters = PdhCounterSet.For("sqlservr#1");
        var table = new PdhTable("H", counters,
        [
            new PdhRow(T0, [50.0, null, null, null, 200.0, 50.0, null, null, null, null]),
        ]);

        var points = PdhSeriesMapper.Map(table, "sqlservr#1", 4);

        Assert.Equal(
            ["os.cpu.idle_pct=50", "server.cpu.user_pct=37.5", "server.cpu.system_pct=12.5"],
            points.Select(p => $"{p.Series}={p.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)}"));
    }
}
