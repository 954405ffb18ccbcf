using System.Diagnostics;
using System.Runtime.Versioning;
using System.Text.Json;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
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

    [WindowsFact]
    public void A_kernel_session_a_killed_probe_left_running_stops_writing_at_its_file_cap_by_itself()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        var runId = "cap-" + Guid.NewGuid().ToString("N")[..8];
        var work = TestData.TempFolder("probe-etw-cap");
        var etl = Path.Combine(work, $"{EtwSessionNames.Prefix}{runId}-load.etl");
        var name = EtwSessionNames.For(runId, Environment.OSVersion.Version);
        const int capMb = 2;
        var control = new EtwTraceSessionControl();

        // Started as a phase's session is, then never stopped by its owner: what a killed probe leaves behind.
        var session = EtwKernelSession.Create(name, etl, new EtwCpuSettings { RunId = runId, ServerProcess = "none", MaxFileMegabytes = capMb });
        session.StopOnDispose = false;
        try
        {
            session.EnableKernelProvider(EtwKernelKeywords.Enabled(offCpu: true), EtwKernelKeywords.WithStacks(offCpu: true));

            // Samples and context switches with stacks run to megabytes a second: hash until the file stays the same
            // size for three seconds running, or 60 s at most.
            var sizes = new List<long>();
            var until = DateTime.UtcNow.AddSeconds(60);
            while (DateTime.UtcNow < until && !(sizes.Count >= 4 && sizes[^4..].Distinct().Count() == 1))
            {
                BusyWork.HashFor(TimeSpan.FromSeconds(1));
                sizes.Add(SizeOf(etl));
            }

            var shown = string.Join(", ", sizes.Select(b => $"{b / 1024} KB"));
            Assert.True(sizes.Count >= 4 && sizes[^4..].Distinct().Count() == 1, $"the file kept growing: {shown}");
            Assert.InRange(sizes[^1], capMb * 1024L * 1024 / 2, (capMb + 1) * 1024L * 1024);

            // Still running: it stopped writing by itself, not because someone stopped it.
            Assert.Contains(name, control.ActiveSessions());
        }
        finally
        {
            // As 'probe cleanup' stops a dead run's session.
            control.Stop(name);
            session.Dispose();
        }

        Assert.DoesNotContain(name, control.ActiveSessions());
        Directory.Delete(work, recursive: true);
    }

    [WindowsFact]
    public async Task A_capture_whose_symbol_server_never_answers_checks_it_once_says_so_in_progress_and_sampling_json_and_logs_the_reader()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        var logged = LoggedLines.Follow();
        using var server = StandInSymbolServer.Start(StandInSymbolServer.Behaviour.NeverAnswers);
        var cache = TestData.TempFolder("probe-symbols-stand-in");
        var root = TestData.TempFolder("probe-etw-stand-in-symbols");
        var progress = new ListProgress();

        // Through the module, as a capture builds it: the capture's progress reaches the collector.
        var module = new EtwModule(() => null);
        var setup = new OsSetup
        {
            Options = OptionValues.Of((EtwOptions.Symbols, $"SRV*{cache}*{server.Url()}")),
            ServerProcess = Process.GetCurrentProcess().ProcessName,
            ServerIsLocal = true,
            ProcessPerSession = false,
            ServerPid = Environment.ProcessId,
            Scope = new RunScope("capture", "sym-" + Guid.NewGuid().ToString("N")[..8]),
            Progress = progress,
        };
        var phase = new PhaseContext("load", 2, root, []);
        var collector = module.Create(module.Choose(setup), phase, setup).Single(c => c.Name == "etw");
        try
        {
            await collector.StartAsync(phase, CancellationToken.None);
            phase.StartUtc = DateTime.UtcNow;
            BusyWork.HashFor(TimeSpan.FromSeconds(2));
            phase.EndUtc = DateTime.UtcNow;
            var clock = Stopwatch.StartNew();
            var outcome = await collector.StopAsync(phase, CancellationToken.None);
            clock.Stop();

            Assert.True(outcome.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{outcome.Status}: {outcome.Error}");
            Assert.Equal("GET / HTTP/1.1", Assert.Single(server.Requests));
            Assert.True(clock.Elapsed < BoundedSymbolLookup.DefaultBudget, $"the stop took {clock.Elapsed.TotalSeconds:0} s");
            Assert.Contains(progress.Messages, m => m == $"symbol server check: {server.Url()} did not answer within 5 s; no symbols are downloaded from it for this phase, only PDBs already in the cache are read");
            Assert.Contains(progress.Messages, m => m == "reading the ETW trace");
            using var facts = JsonDocument.Parse(File.ReadAllText(Path.Combine(root, BundlePaths.StackInfo(phase.Name))));
            Assert.Contains($"downloads skipped for this phase: {server.Url()} did not answer within 5 s", facts.RootElement.GetProperty("symbols").GetString(), StringComparison.Ordinal);
            Assert.Contains(logged.Lines, l => l.StartsWith("DBG symbol reader: Created SymbolReader with SymbolPath ", StringComparison.Ordinal));
            Assert.Contains(logged.Lines, l => l.StartsWith("DBG symbol reader: FindSymbolFilePath: ", StringComparison.Ordinal));
        }
        finally
        {
            Directory.Delete(root, recursive: true);
            Directory.Delete(cache, recursive: true);
        }
    }

    // The length through a handle: a directory entry's size of a file another handle is writing may lag behind.
    private static long SizeOf(string path)
    {
        try
        {
            using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            return stream.Length;
        }
        catch (IOException)
        {
            return new FileInfo(path).Length;
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
