using System.Diagnostics;
using System.Runtime.InteropServices;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.OffCpu;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// A real ETW capture with off-CPU stacks on, of this test process standing in for the server: one thread sleeps in
/// short naps as "session 1". Needs Windows and an elevated prompt (hosted CI runners are); skipped elsewhere.
/// </summary>
public sealed class EtwLiveOffCpuTests
{
    [WindowsFact]
    public async Task A_sleeping_thread_shows_as_blocked_time_of_its_session_with_a_kernel_stack()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        var root = TestData.TempFolder("probe-etw-offcpu");
        try
        {
            var offCpu = new EtwOffCpuOutcome();
            var settings = new EtwCpuSettings
            {
                RunId = "test-" + Guid.NewGuid().ToString("N")[..8],
                ServerProcess = Process.GetCurrentProcess().ProcessName,
                ServerPid = Environment.ProcessId,
                OffCpuOutcome = offCpu,
            };
            var collector = new EtwCpuCollector(settings, new ListProgress());
            var reporter = new EtwOffCpuCollector(offCpu);
            var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, null, 51)]);
            await collector.StartAsync(phase, CancellationToken.None);
            phase.StartUtc = DateTime.UtcNow;
            var napper = new Thread(() =>
            {
                // 2 s of 10 ms naps, telling the phase which OS thread serves session 1, as the worker-thread sampler does.
                var tid = (int)GetCurrentThreadId();
                var until = DateTime.UtcNow.AddSeconds(2);
                while (DateTime.UtcNow < until)
                {
                    phase.ServerThreads.Observe(DateTime.UtcNow, tid, 1);
                    Thread.Sleep(10);
                }
            });
            napper.Start();
            napper.Join();
            phase.EndUtc = DateTime.UtcNow;
            var cpu = await collector.StopAsync(phase, CancellationToken.None);
            var outcome = await reporter.StopAsync(phase, CancellationToken.None);

            Assert.True(cpu.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{cpu.Status}: {cpu.Error}");
            Assert.True(outcome.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{outcome.Status}: {outcome.Error}");
            var rows = File.ReadAllLines(Path.Combine(root, BundlePaths.OffCpuIntervals("load"))).Skip(1)
                .Select(l => l.Split(',')).Where(f => f[2] == "1" && f[3] == "S").ToArray();
            var blockedMs = rows.Sum(f => double.Parse(f[1], System.Globalization.CultureInfo.InvariantCulture) - double.Parse(f[0], System.Globalization.CultureInfo.InvariantCulture));
            // About 200 naps of 10 ms or more: most of the 2 s is asleep.
            Assert.True(rows.Length > 100, $"only {rows.Length} blocked stretches");
            Assert.True(blockedMs > 1000, $"only {blockedMs} ms blocked");
            var stacks = File.ReadAllText(Path.Combine(root, BundlePaths.OffCpuStacks("load")));
            Assert.Contains("ntoskrnl", stacks, StringComparison.OrdinalIgnoreCase);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [DllImport("kernel32.dll", ExactSpelling = true)]
    private static extern uint GetCurrentThreadId();
}
