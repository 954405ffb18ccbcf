using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// The server's process among several instances of one name, as PDH reports them sample by sample: recorded-shaped raw
/// arrays of <c>\Process(sqlservr*)\ID Process</c> and the two CPU counters (a stand-in for PDH, which needs Windows),
/// with a second instance, a third, and a renumbering when the first exits. The rate is PDH's formula for these
/// counters (PERF_100NSEC_TIMER: 100 × ΔCPU time ÷ Δtime, both in 100 ns), standing in for PDH's calculation.
/// </summary>
public sealed class PdhProcessInstancesTests
{
    private static readonly DateTime T0 = new(2026, 3, 14, 9, 0, 0, DateTimeKind.Utc);
    private const long Second = 10_000_000;

    private static PdhRawValue Raw(string instance, long first, long time = 0) => new(instance, 0, time, first, time, 0);

    private static PdhRawValue[] Ids(params (string Instance, long Pid)[] instances) => [.. instances.Select(i => Raw(i.Instance, i.Pid))];

    private static PdhRawValue[] Times(long time, params (string Instance, long Cpu100ns)[] instances) => [.. instances.Select(i => Raw(i.Instance, i.Cpu100ns, time))];

    private sealed class Calculator
    {
        public List<(int Counter, long Current, long Previous)> Pairs { get; } = [];

        public double? Rate(int counter, PdhRawValue current, PdhRawValue previous)
        {
            Pairs.Add((counter, current.First, previous.First));
            return current.First < previous.First || current.Second <= previous.Second ? null : 100.0 * (current.First - previous.First) / (current.Second - previous.Second);
        }
    }

    [Fact]
    public void Each_rate_pairs_the_servers_own_raw_values_through_a_renumbering_not_the_instance_that_held_its_name()
    {
        // Sample 0: three instances; the server (pid 4242) is sqlservr#1. Sample 1: the same, a second later. Sample 2: the
        // first (pid 1880) exited and PDH renumbered: the server is now plain sqlservr, and sqlservr#1 is pid 5150.
        var calculator = new Calculator();
        var cpu = new PdhServerCpu(4242, calculator.Rate);
        var none = cpu.Next(
            Ids(("sqlservr", 1880), ("sqlservr#1", 4242), ("sqlservr#2", 5150)),
            Times(0, ("sqlservr", 50_000_000), ("sqlservr#1", 9_000_000_000), ("sqlservr#2", 1_000_000)),
            Times(0, ("sqlservr", 20_000_000), ("sqlservr#1", 4_000_000_000), ("sqlservr#2", 500_000)));
        var first = cpu.Next(
            Ids(("sqlservr", 1880), ("sqlservr#1", 4242), ("sqlservr#2", 5150)),
            Times(Second, ("sqlservr", 51_250_000), ("sqlservr#1", 9_073_125_000), ("sqlservr#2", 1_300_000)),
            Times(Second, ("sqlservr", 20_200_000), ("sqlservr#1", 4_040_250_000), ("sqlservr#2", 600_000)));
        var second = cpu.Next(
            Ids(("sqlservr", 4242), ("sqlservr#1", 5150)),
            Times(2 * Second, ("sqlservr", 9_142_925_000), ("sqlservr#1", 1_550_000)),
            Times(2 * Second, ("sqlservr", 4_078_250_000), ("sqlservr#1", 650_000)));

        Assert.Equal((null, null), none);
        Assert.Equal((731.25, 402.5), first);
        Assert.Equal((698.0, 380.0), second);

        // Paired by name, the renumbered sample would set the server's 9,142,925,000 against pid 1880's 51,250,000.
        Assert.Contains((0, 9_142_925_000L, 9_073_125_000L), calculator.Pairs);
        Assert.DoesNotContain(calculator.Pairs, p => p.Previous is 51_250_000 or 20_200_000);
    }

    [Fact]
    public void Without_the_pid_only_a_single_instance_counts_and_a_pid_not_running_gives_no_value()
    {
        Assert.Equal("sqlservr", PdhProcessInstances.Pick(Ids(("sqlservr", 1880)), pid: null)?.Instance);
        Assert.Null(PdhProcessInstances.Pick(Ids(("sqlservr", 1880), ("sqlservr#1", 4242)), pid: null));
        Assert.Null(PdhProcessInstances.Pick(Ids(("sqlservr", 1880)), pid: 4242));

        var calculator = new Calculator();
        var cpu = new PdhServerCpu(4242, calculator.Rate);
        cpu.Next(Ids(("sqlservr", 4242)), Times(0, ("sqlservr", 100)), Times(0, ("sqlservr", 10)));
        Assert.Equal((null, null), cpu.Next([], [], []));

        // Back under the same pid after a gap: no rate until it has a sample of its own before.
        Assert.Equal((null, null), cpu.Next(Ids(("sqlservr", 4242)), Times(2 * Second, ("sqlservr", 5_000_100)), Times(2 * Second, ("sqlservr", 10))));
        Assert.Equal((50.0, 0.0), cpu.Next(Ids(("sqlservr", 4242)), Times(3 * Second, ("sqlservr", 10_000_100)), Times(3 * Second, ("sqlservr", 10))));
    }

    [Fact]
    public void A_single_instance_without_a_pid_that_another_process_takes_over_gives_no_rate_across_them()
    {
        var calculator = new Calculator();
        var cpu = new PdhServerCpu(null, calculator.Rate);
        cpu.Next(Ids(("sqlservr", 1880)), Times(0, ("sqlservr", 900_000_000)), Times(0, ("sqlservr", 1)));

        // The server restarted: the one sqlservr is now pid 2044, whose CPU time starts again near zero.
        Assert.Equal((null, null), cpu.Next(Ids(("sqlservr", 2044)), Times(Second, ("sqlservr", 3_000_000)), Times(Second, ("sqlservr", 1))));
        Assert.Empty(calculator.Pairs);
    }

    [Fact]
    public void A_row_of_a_named_instances_server_maps_to_its_share_of_every_processor_group()
    {
        // 128 logical CPUs in two groups: \Processor Information(_Total) covers both. The second instance's server
        // (pid 4242) uses 40 cores, 8 in kernel mode: 31.25% of the machine, 25% of it user time.
        var instance = PdhCounterSet.ServerInstance("sqlservr", 4242);
        var calculator = new Calculator();
        var cpu = new PdhServerCpu(4242, calculator.Rate);
        var ids = Ids(("sqlservr", 1880), ("sqlservr#1", 4242));
        cpu.Next(ids, Times(0, ("sqlservr", 0), ("sqlservr#1", 0)), Times(0, ("sqlservr", 0), ("sqlservr#1", 0)));
        var (total, privileged) = cpu.Next(ids, Times(Second, ("sqlservr", 10_000_000), ("sqlservr#1", 400_000_000)), Times(Second, ("sqlservr", 5_000_000), ("sqlservr#1", 80_000_000)));
        var table = new PdhTable("SQLPROD01", PdhCounterSet.For(instance),
            [new PdhRow(T0, PdhCounterSet.Row([45.0, 9.0, 0.5, 0.25, 120_000, 3, 210_000, 6], total, privileged))]);

        var points = PdhSeriesMapper.Map(table, instance, 128).ToDictionary(p => p.Series, p => p.Value);

        Assert.Equal(@"\Process(sqlservr:4242)\% Processor Time", table.Counters[4]);
        Assert.Equal(@"\Processor Information(_Total)\% Processor Time", table.Counters[0]);
        Assert.Equal(3200.0 / 128, points["server.cpu.user_pct"], 9);
        Assert.Equal(800.0 / 128, points["server.cpu.system_pct"], 9);
        Assert.Equal(36.0, points["os.cpu.user_pct"], 9);
        Assert.Equal(120_000, points["os.mem.available_mb"]);
        Assert.Equal(6, points["os.run_queue"]);
    }
}
