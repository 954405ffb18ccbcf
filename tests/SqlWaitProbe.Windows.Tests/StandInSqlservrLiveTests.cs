using System.Globalization;
using System.Net;
using System.Net.Sockets;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// Which process is the server's, on a real kernel session and real counters (Windows; the Windows CI job runs them),
/// with stand-ins named sqlservr (copies of cmd.exe, <see cref="StandInSqlservr"/>) since the job has no SQL Server:
/// a server named by anything but this machine's short name is decided local after connecting, and the pid it gives
/// is the one ETW and PDH read, among processes of the same name that PDH renumbers as they come and go.
/// </summary>
public sealed class StandInSqlservrLiveTests
{
    [WindowsFact]
    public async Task A_server_named_by_full_name_address_alias_or_pipe_is_local_after_connecting_and_etw_keeps_only_its_sqlservr_pid_as_the_workload()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        using var standIns = StandInSqlservr.Create();
        var server = standIns.StartBusy();
        var other = standIns.StartBusy();

        // What SERVERPROPERTY('ComputerNamePhysicalNetBIOS') and ('ProcessID') say on this machine, for the names a
        // server here can be reached by that do not spell the machine's short name.
        var host = Dns.GetHostEntry(Environment.MachineName);
        var address = host.AddressList.FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork && !IPAddress.IsLoopback(a))?.ToString() ?? "127.0.0.1";
        foreach (var dataSource in new[] { host.HostName + ",1433", address, "SalesAlias", $@"np:\\{host.HostName}\pipe\sql\query" })
        {
            var location = SqlServerHost.Locate(dataSource, Environment.MachineName, server.Id, Environment.MachineName, SqlServerHost.LocalProcessName);
            Assert.True(location.IsLocal, $"{dataSource}: {location.Reason}");
            Assert.Equal(server.Id, location.ServerPid);
        }

        var root = TestData.TempFolder("probe-etw-stand-in");
        try
        {
            var collector = new EtwCpuCollector(new EtwCpuSettings { RunId = "pid-" + Guid.NewGuid().ToString("N")[..8], ServerProcess = "sqlservr", ServerPid = server.Id });
            var phase = new PhaseContext("load", 1, root, []);
            await collector.StartAsync(phase, CancellationToken.None);
            phase.StartUtc = DateTime.UtcNow;
            await Task.Delay(TimeSpan.FromSeconds(2));
            phase.EndUtc = DateTime.UtcNow;
            var outcome = await collector.StopAsync(phase, CancellationToken.None);
            Assert.True(outcome.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{outcome.Status}: {outcome.Error}");

            // Both stand-ins are busy; only the server's pid is sqlservr, the other is filed apart.
            var profile = new StackProfile();
            using (var reader = new StreamReader(Path.Combine(root, BundlePaths.Stacks("load"))))
            {
                FoldedStackFormat.ReadInto(reader, "stacks.folded", profile, firstFrameIsProcess: true);
            }

            var serverSamples = profile.Entries.Where(e => e.Process == "sqlservr").Sum(e => e.Weight);
            var otherSamples = profile.Entries.Where(e => e.Process == WorkloadProcesses.OtherName("sqlservr")).Sum(e => e.Weight);
            Assert.True(serverSamples > 300, $"the server's stand-in, busy for 2 s, has {serverSamples} samples");
            Assert.True(otherSamples > 300, $"the other stand-in, busy for 2 s, has {otherSamples} samples filed apart");
            var pids = File.ReadAllLines(Path.Combine(root, BundlePaths.Processes("load"))).Skip(1).Select(l => l.Split(',')[0]).ToArray();
            Assert.Equal([server.Id.ToString(CultureInfo.InvariantCulture)], pids);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [WindowsFact]
    public async Task Pdh_reads_the_busy_sqlservr_by_its_pid_through_a_renumbering_and_machine_cpu_from_processor_information()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        using var standIns = StandInSqlservr.Create();
        var first = standIns.StartIdle();
        var busy = standIns.StartBusy();
        var idle = standIns.StartIdle();
        var busyRoot = TestData.TempFolder("probe-pdh-busy");
        var idleRoot = TestData.TempFolder("probe-pdh-idle");
        try
        {
            var busyCollector = new PdhCounterCollector("sqlservr", busy.Id);
            var idleCollector = new PdhCounterCollector("sqlservr", idle.Id);
            var busyPhase = new PhaseContext("load", 1, busyRoot, []);
            var idlePhase = new PhaseContext("load", 1, idleRoot, []);
            await busyCollector.StartAsync(busyPhase, CancellationToken.None);
            await idleCollector.StartAsync(idlePhase, CancellationToken.None);

            // The first sqlservr exits half way: PDH renames the others (sqlservr#1 becomes sqlservr, …) between samples.
            await WaitForSamples(busyCollector, 2);
            first.Kill(entireProcessTree: true);
            await first.WaitForExitAsync();
            var sampled = busyCollector.SampleCount;
            await WaitForSamples(busyCollector, sampled + 3);

            var busyOutcome = await busyCollector.StopAsync(busyPhase, CancellationToken.None);
            var idleOutcome = await idleCollector.StopAsync(idlePhase, CancellationToken.None);
            Assert.Equal(CollectorStatus.Ok, busyOutcome.Status);
            Assert.Equal(CollectorStatus.Ok, idleOutcome.Status);

            var busyTable = PdhCsvReader.ReadFile(Path.Combine(busyRoot, BundlePaths.PdhCsv("load")));
            var idleTable = PdhCsvReader.ReadFile(Path.Combine(idleRoot, BundlePaths.PdhCsv("load")));
            var busyCpu = Column(busyTable, $@"\Process(sqlservr:{busy.Id})\% Processor Time");
            var idleCpu = Column(idleTable, $@"\Process(sqlservr:{idle.Id})\% Processor Time");

            // Every sample after the first (a rate needs two), before and after the renumbering, is the busy one's.
            Assert.All(busyCpu.Skip(1), v => Assert.True(v > 50, $"the busy stand-in read {v}% in one sample: {string.Join(", ", busyCpu)}"));
            Assert.All(idleCpu.Skip(1), v => Assert.True(v < 20, $"the idle stand-in read {v}% in one sample: {string.Join(", ", idleCpu)}"));

            // Machine CPU from \Processor Information, read in every sample, over every processor group's CPUs.
            var machine = Column(busyTable, PdhCounterSet.ProcessorTime);
            Assert.All(machine.Skip(1), v => Assert.InRange(v, 0.0, 100.0));
            Assert.True(WindowsProcessors.LogicalCount() >= Environment.ProcessorCount);
        }
        finally
        {
            Directory.Delete(busyRoot, recursive: true);
            Directory.Delete(idleRoot, recursive: true);
        }
    }

    private static double[] Column(PdhTable table, string counter)
    {
        var index = table.IndexOf(counter);
        Assert.True(index >= 0, $"{counter} is not among {string.Join(", ", table.Counters)}");
        return [.. table.Rows.Select(r => r.Values[index] ?? double.NaN)];
    }

    [System.Runtime.Versioning.SupportedOSPlatform("windows")]
    private static async Task WaitForSamples(PdhCounterCollector collector, int count)
    {
        // Samples come once a second; a loaded runner may take longer, never ten times longer.
        var until = DateTime.UtcNow.AddSeconds(10 * count);
        while (collector.SampleCount < count && DateTime.UtcNow < until)
        {
            await Task.Delay(100);
        }

        Assert.True(collector.SampleCount >= count, $"only {collector.SampleCount} PDH samples");
    }
}
