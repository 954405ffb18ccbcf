using System.Diagnostics;
using System.Text.Json;
using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.TestSupport.Etl;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.OffCpu;
using SqlWaitProbe.Windows.Symbols;
using static SqlWaitProbe.TestSupport.Etl.EtlTraceBuilder;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// The symbol lookup after an ETW phase as it runs on Windows, here on the real PerfView trace with TraceEvent's own
/// symbol reader (finding PDBs is managed code; only opening one needs Windows) against stand-in symbol servers on this
/// machine's loopback. Each server is checked once before the first lookup; the reader's log reaches the probe's log.
/// </summary>
public sealed class SymbolServerOnTheRealTraceTests
{
    private const string Password = "s3cret-pw";

    [Fact]
    public void A_symbol_server_that_never_answers_is_checked_once_then_only_the_cache_is_read_and_progress_data_quality_and_the_log_say_so()
    {
        var logged = LoggedLines.Follow();
        using var server = StandInSymbolServer.Start(StandInSymbolServer.Behaviour.NeverAnswers);
        var (root, result, progress, elapsed) = Convert(server.Url("probe:" + Password), checkTimeout: TimeSpan.FromSeconds(1));
        var shown = $"http://probe:***@127.0.0.1:{server.Port}/";

        // Asked once, by the check, and never for a PDB: without the check every module would wait 15 s for it.
        Assert.True(SpinWait.SpinUntil(() => server.Requests.Count >= 1, TimeSpan.FromSeconds(10)), "the check never reached the stand-in");
        Assert.Equal("GET / HTTP/1.1", Assert.Single(server.Requests));
        Assert.Equal(1, server.Connections);
        Assert.DoesNotContain(progress.Messages, m => m.Contains("took longer than", StringComparison.Ordinal));
        Assert.True(elapsed < BoundedSymbolLookup.DefaultBudget, $"the phase took {elapsed.TotalSeconds:0} s");

        Assert.Contains($"symbol server check: {shown} did not answer within 1 s; no symbols are downloaded from it for this phase, only PDBs already in the cache are read",
            progress.Messages);
        Assert.StartsWith("not resolved: no PDB found for ", result.Facts.Symbols, StringComparison.Ordinal);
        Assert.Contains($"; downloads skipped for this phase: {shown} did not answer within 1 s when checked before the first lookup", result.Facts.Symbols, StringComparison.Ordinal);
        Assert.Equal(6320, EtlPhaseConversionTests.Folded(root).TotalWeight);
        using (var facts = JsonDocument.Parse(File.ReadAllText(Path.Combine(root, BundlePaths.StackInfo("load")))))
        {
            Assert.Equal(result.Facts.Symbols, facts.RootElement.GetProperty("symbols").GetString());
        }

        Assert.Contains(EtlPhaseConversionTests.DataQualityOf(root), n => n.StartsWith("phase load: symbols not resolved: no PDB found for ", StringComparison.Ordinal)
            && n.Contains($"downloads skipped for this phase: {shown} did not answer within 1 s", StringComparison.Ordinal));

        // The reader's own log, in the probe's log with the password masked: its path, then the cache-only lookups.
        var lines = logged.Lines;
        Assert.Contains(lines, l => l.StartsWith("DBG symbol reader: Created SymbolReader with SymbolPath SRV*", StringComparison.Ordinal) && l.EndsWith("*" + shown, StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("DBG symbol reader: FindSymbolFilePath: ", StringComparison.Ordinal) && l.Contains("cacheOnly set, giving up", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.Contains(Password, StringComparison.Ordinal));
        Assert.DoesNotContain(Password, result.Facts.Symbols, StringComparison.Ordinal);
    }

    [Fact]
    public void A_symbol_server_that_refuses_at_once_is_named_as_refusing_and_only_the_cache_is_read()
    {
        using var server = StandInSymbolServer.Start(StandInSymbolServer.Behaviour.RefusesAtOnce);
        var (_, result, progress, _) = Convert(server.Url(), checkTimeout: TimeSpan.FromSeconds(20));

        // "refused", not "did not answer within 20 s": the check did not wait for its timeout.
        Assert.Contains($"symbol server check: http://127.0.0.1:{server.Port}/ refused the connection; no symbols are downloaded from it for this phase, only PDBs already in the cache are read",
            progress.Messages);
        Assert.Contains($"; downloads skipped for this phase: http://127.0.0.1:{server.Port}/ refused the connection when checked before the first lookup", result.Facts.Symbols,
            StringComparison.Ordinal);
    }

    [Fact]
    public void A_symbol_server_that_answers_is_asked_by_the_real_reader_for_each_pdb_by_its_identity_and_its_answers_reach_the_log()
    {
        var logged = LoggedLines.Follow();
        using var server = StandInSymbolServer.Start(StandInSymbolServer.Behaviour.AnswersNotFound);
        var (_, result, progress, _) = Convert(server.Url(), checkTimeout: TimeSpan.FromSeconds(20));

        // The check, then the PDBs by name, GUID and age, as symsrv lays them out.
        Assert.Equal("GET / HTTP/1.1", server.Requests[0]);
        var pdbRequests = server.Requests.Where(r => Regex.IsMatch(r, @"^GET //?[^/]+\.pdb/[0-9A-F]{32}[0-9a-f]+/[^/]+\.pdb HTTP/1\.1$")).ToArray();
        Assert.Contains(pdbRequests, r => r.Contains("/clr.pdb/", StringComparison.Ordinal));
        Assert.DoesNotContain(progress.Messages, m => m.StartsWith("symbol server check:", StringComparison.Ordinal));
        Assert.StartsWith("not resolved: no PDB found for ", result.Facts.Symbols, StringComparison.Ordinal);
        Assert.DoesNotContain("downloads skipped", result.Facts.Symbols, StringComparison.Ordinal);
        Assert.Contains(logged.Lines, l => l.StartsWith($"DBG symbol reader: FindSymbolFilePath: Probe of http://127.0.0.1:{server.Port}/", StringComparison.Ordinal)
            && l.Contains("404", StringComparison.Ordinal));
    }

    [Fact]
    public async Task The_off_cpu_outcome_is_set_once_its_files_are_written_before_any_symbol_is_looked_up()
    {
        // Context switches built to the CSwitch and ReadyThread layouts (no public trace holds them), as in EtlPhaseConversionTests.
        const ulong kernel = 0xFFFF_F800_0000_0000, exe = 0x7FF6_0000_0000;
        var etl = new EtlTraceBuilder()
            .Image(0, Ms(0.1), 0, kernel, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe", rundown: true)
            .Process(0, Ms(0.2), 900, "sqlservr.exe", rundown: true)
            .Process(0, Ms(0.2), 800, "other.exe", rundown: true)
            .Thread(0, Ms(0.3), 900, 101, rundown: true)
            .Thread(0, Ms(0.3), 800, 102, rundown: true)
            .Image(0, Ms(0.4), 900, exe, 0x100_0000, @"\Device\HarddiskVolume2\MSSQL\Binn\sqlservr.exe", rundown: true)
            .Sample(0, Ms(5), 101, exe + 0x10)
            .Stack(0, Ms(5), Ms(5), 900, 101, exe + 0x10)
            .CSwitch(0, Ms(10), newTid: 102, oldTid: 101, oldState: 5)
            .ReadyThread(1, Ms(14), readierTid: 102, tid: 101)
            .CSwitch(0, Ms(15), newTid: 101, oldTid: 102, oldState: 1)
            .Stack(0, Ms(15), Ms(15), 900, 101, kernel + 0x20, kernel + 0x30, exe + 0x400)
            .Build();
        var root = TestData.TempFolder("etl-offcpu-early");
        var phase = new PhaseContext("load", 1, root, [new Core.Workloads.WorkloadSessionInfo(1, null, 51)]);
        var path = phase.PathFor(BundlePaths.EtwTrace("load"));
        File.WriteAllBytes(path, etl);
        var start = new DateTime(2026, 1, 5, 10, 0, 0, DateTimeKind.Utc);
        phase.StartUtc = start;
        phase.ServerThreads.Observe(start, 101, 1);
        phase.ServerThreads.Observe(start.AddMilliseconds(20), 101, 1);
        var outcome = new EtwOffCpuOutcome();
        bool? setBeforeLookup = null;
        EtlSymbolLookup lookup = (_, _, _, _) =>
        {
            setBeforeLookup = outcome.Task.IsCompleted;
            return (null, "no PDB found");
        };

        EtlPhaseConversion.Write(phase, path, new EtlConversionSettings { ServerProcess = "sqlservr", ServerPid = 900, OffCpu = true, OffCpuOutcome = outcome },
            lookup, "unused", 0, start, start.AddSeconds(1), new ListProgress(), CancellationToken.None);

        Assert.True(setBeforeLookup, "the off-CPU outcome was still unset when the symbol lookup began");
        var set = await outcome.Task;
        Assert.Equal(("offcpu", CollectorStatus.Ok), (set.Name, set.Status));
    }

    private static (string Root, EtlConversionResult Result, ListProgress Progress, TimeSpan Elapsed) Convert(string server, TimeSpan checkTimeout)
    {
        var scratch = TestData.TempFolder("etl-symbol-server");
        var root = Path.Combine(scratch, "bundle");
        var phase = new PhaseContext("load", 1, root, []);
        var etl = EtlPhaseConversionTests.SharedEtl("perfview__net.4.5.2.x64");
        var start = EtlPhaseConversionTests.TraceStart(etl);
        var options = SymbolOptions.Resolve($"SRV*{Path.Combine(scratch, "cache")}*{server}", offline: false, _ => null, scratch);
        var progress = new ListProgress();
        var clock = Stopwatch.StartNew();
        using (var symbols = new PdbSymbolLookup(options, progress, serverCheckTimeout: checkTimeout))
        {
            var result = EtlPhaseConversion.Write(phase, etl, EtlPhaseConversionTests.Settings(), symbols.Lookup, "unused", 0, start, start.AddSeconds(10), progress,
                CancellationToken.None);
            return (root, result, progress, clock.Elapsed);
        }
    }
}
