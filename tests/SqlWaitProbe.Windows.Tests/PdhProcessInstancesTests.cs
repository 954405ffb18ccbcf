using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// The server's process among several instances of one name, as PDH reports them sample by sample: recorded-shaped
/// arrays of <c>\Process(sqlservr*)\ID Process</c> and the two CPU counters (a stand-in for PDH, which needs Windows),
/// with a second instance, a third, and a renumbering when the first exits.
/// </summary>
public sealed class PdhProcessInstancesTests
{
    private static readonly DateTime T0 = new(2026, 3, 14, 9, 0, 0, DateTimeKind.Utc);

    private static PdhInstanceValue[] Ids(params (string Instance, double Pid)[] instances) =>
        [.. instances.Select(i => new PdhInstanceValue(i.Instance, i.Pid))];

    private static PdhInstanceValue[] Values(params (string Instance, double Value)[] instances) =>
        [.. instances.Select(i => new PdhInstanceValue(i.Instance, i.Value))];

    [Fact]
    public void The_instance_is_the_one_whose_id_process_is_the_servers_pid_in_each_sample_through_a_renumbering()
    {
        // Sample 1: three instances; the server (pid 4242) is sqlservr#1. Sample 2: the first (pid 1880) exited, and
        // PDH renumbered: the server is now plain sqlservr, and sqlservr#1 is another instance (pid 5150).
        var first = PdhProcessInstances.ServerCpu(
            Ids(("sqlservr", 1880), ("sqlservr#1", 4242), ("sqlservr#2", 5150)),
            Values(("sqlservr", 12.5), ("sqlservr#1", 731.25), ("sqlservr#2", 3.0)),
            Values(("sqlservr", 2.0), ("sqlservr#1", 402.5), ("sqlservr#2", 1.0)),
            pid: 4242);
        var second = PdhProcessInstances.ServerCpu(
            Ids(("sqlservr", 4242), ("sqlservr#1", 5150)),
            Values(("sqlservr", 698.0), ("sqlservr#1", 2.5)),
            Values(("sqlservr", 380.0), ("sqlservr#1", 0.5)),
            pid: 4242);

        Assert.Equal((731.25, 402.5), (first.Total, first.Privileged));
        Assert.Equal((698.0, 380.0), (second.Total, second.Privileged));
    }

    [Fact]
    public void Without_the_pid_only_a_single_instance_counts_and_a_pid_not_running_gives_no_value()
    {
        Assert.Equal("sqlservr", PdhProcessInstances.Pick(Ids(("sqlservr", 1880)), pid: null));
        Assert.Null(PdhProcessInstances.Pick(Ids(("sqlservr", 1880), ("sqlservr#1", 4242)), pid: null));
        Assert.Null(PdhProcessInstances.Pick(Ids(("sqlservr", 1880)), pid: 4242));
        Assert.Equal((null, null), PdhProcessInstances.ServerCpu([], [], [], 4242));
    }

    [Fact]
    public void A_row_of_a_named_instances_server_maps_to_its_share_of_every_processor_group()
    {
        // 128 logical CPUs in two groups: \Processor Information(_Total) covers both. The second instance's server
        // (pid 4242) uses 40 cores, 8 in kernel mode: 31.25% of the machine, 25% of it user time.
        var instance = PdhCounterSet.ServerInstance("sqlservr", 4242);
        var (total, privileged) = PdhProcessInstances.ServerCpu(
            Ids(("sqlservr", 1880), ("sqlservr#1", 4242)), Values(("sqlservr", 100.0), ("sqlservr#1", 4000.0)), Values(("sqlservr", 50.0), ("sqlservr#1", 800.0)), 4242);
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
