using System.Diagnostics;
using System.Runtime.Versioning;
using System.Text.Json;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>Real ETW captures of this test process; need Windows and an elevated prompt (hosted CI runners are).</summary>
public sealed class EtwLiveCaptureTests
{
    [WindowsFact]
    public async Task Two_seconds_of_hashing_show_this_process_and_bcrypt_in_the_stacks()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        var (root, phase, outcome, _, sessionName) = await CaptureAsync(symbols: null);
        try
        {
            Assert.True(outcome.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{outcome.Status}: {outcome.Error}");
            var process = Process.GetCurrentProcess().ProcessName;
            var profile = ReadStacks(root, phase.Name);
            var mine = profile.Entries.Where(e => e.Process == process).Sum(e => e.Weight);
            // 2 threads × 2 s at 1 ms is ~4000 samples; VMs drop some, never most.
            Assert.True(mine > 1000, $"only {mine} samples of {process}; processes: {string.Join(", ", profile.Processes)}");

            var modules = ModuleShares.Compute(profile, process).ToDictionary(s => (s.Module, s.Kernel));
            Assert.Contains(("bcryptprimitives", false), modules.Keys);
            Assert.Contains(("ntdll", false), modules.Keys);
            Assert.True(modules[("bcryptprimitives", false)].ExclusiveShare > 0.2, "hashing should dominate the busy loop");

            Assert.True(new FileInfo(Path.Combine(root, BundlePaths.EtwTrace(phase.Name))).Length > 0);
            using var facts = JsonDocument.Parse(File.ReadAllText(Path.Combine(root, BundlePaths.StackInfo(phase.Name))));
            Assert.Equal("etw", facts.RootElement.GetProperty("source").GetString());
            Assert.True(facts.RootElement.GetProperty("samples").GetInt64() >= mine);
            Assert.DoesNotContain(sessionName, new EtwTraceSessionControl().ActiveSessions());
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [WindowsFact]
    public async Task Symbols_from_the_microsoft_server_name_the_hashing_functions()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        var cache = TestData.TempFolder("probe-symbols");
        var symbols = SymbolOptions.Resolve(null, offline: false, _ => null, cache);
        var (root, phase, outcome, progress, _) = await CaptureAsync(symbols);
        try
        {
            Assert.True(outcome.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{outcome.Status}: {outcome.Error}");
            Assert.Contains(progress.Messages, m => m.StartsWith("loading symbols for bcryptPrimitives.dll", StringComparison.OrdinalIgnoreCase));
            var profile = ReadStacks(root, phase.Name);
            var named = Enumerable.Range(0, profile.Frames.Count).Select(i => profile.Frames[i])
                .Where(f => f.Module == "bcryptprimitives" && f.Symbol != f.Module).ToArray();
            Assert.NotEmpty(named);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
            Directory.Delete(cache, recursive: true);
        }
    }

    [SupportedOSPlatform("windows")]
    private static async Task<(string Root, PhaseContext Phase, CollectorOutcome Outcome, ListProgress Progress, string SessionName)> CaptureAsync(SymbolOptions? symbols)
    {
        var root = TestData.TempFolder("probe-etw");
        var progress = new ListProgress();
        var settings = new EtwCpuSettings
        {
            RunId = "test-" + Guid.NewGuid().ToString("N")[..8],
            ServerProcess = Process.GetCurrentProcess().ProcessName,
            Symbols = symbols,
        };
        var collector = new EtwCpuCollector(settings, progress);
        var phase = new PhaseContext("load", 2, root, []);
        await collector.StartAsync(phase, CancellationToken.None);
        phase.StartUtc = DateTime.UtcNow;
        BusyWork.HashFor(TimeSpan.FromSeconds(2));
        phase.EndUtc = DateTime.UtcNow;
        var outcome = await collector.StopAsync(phase, CancellationToken.None);
        return (root, phase, outcome, progress, EtwSessionNames.Prefix + settings.RunId);
    }

    private static StackProfile ReadStacks(string root, string phase)
    {
        var profile = new StackProfile();
        using var reader = new StreamReader(Path.Combine(root, BundlePaths.Stacks(phase)));
        FoldedStackFormat.ReadInto(reader, "stacks.folded", profile, firstFrameIsProcess: true);
        return profile;
    }
}
