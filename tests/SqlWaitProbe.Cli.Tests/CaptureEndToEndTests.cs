using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

public sealed class CaptureEndToEndTests
{
    [Fact]
    public async Task Capture_of_hashbytes_on_the_embedded_server_writes_a_complete_bundle()
    {
        // Default call graph (auto): short phases keep DWARF's data far within the cap, so the capture unwinds with DWARF.
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2),
            "capture", "--engine", "postgres", "--workload", "hashbytes", "--threads", "2", "--duration", "4s", "--scale", "0.05", "-o", dir);
        Assert.True(exit == 0, stderr);
        Assert.Contains("bundle: " + dir, stdout);
        Assert.Contains("phase baseline", stderr);

        var callGraph = SqlWaitProbe.Linux.PerfRecord.PerfCallGraph.Choose(null, 4, Environment.ProcessorCount, 499, 1024)!;
        Assert.Equal("dwarf", callGraph.Mode);
        Assert.StartsWith("auto: about ", callGraph.Reason, StringComparison.Ordinal);
        using var bundle = CaptureBundle.Open(dir);
        var m = bundle.Manifest;
        Assert.Equal(BundleStatus.Complete, m.Status);
        Assert.Equal(["baseline", "load"], m.Phases.Select(p => p.Name));
        Assert.All(m.Phases, p => Assert.True(p.Executions > 0 && p.Errors == 0));
        Assert.Equal("postgres", m.Engine);
        Assert.StartsWith("15", m.ServerVersion);
        Assert.Equal("0", m.Options["server.max_parallel_workers_per_gather"]);
        Assert.Equal(["backend-cpu", "offcpu", "os", "perf", "pg-plan", "pg-stat-database", "pg-statements", "pg-waits"], m.Collectors.Select(c => c.Name).Order(StringComparer.Ordinal));
        Assert.All(m.Collectors.Where(c => c.Name != "offcpu"), c => Assert.True(c.Status == CollectorStatus.Ok, $"{c.Name}: {c.Status} {c.Error}"));
        Assert.EndsWith("--offcpu off", m.Collectors.Single(c => c.Name == "offcpu").Error, StringComparison.Ordinal);
        Assert.Empty(bundle.VerifyFiles());

        foreach (var phase in m.Phases)
        {
            using var sessions = bundle.OpenText(BundlePaths.Sessions(phase.Name))!;
            var rows = Csv.ReadRows(sessions).ToArray();
            Assert.Equal(phase.Threads, rows.Length);
            Assert.All(rows, r => Assert.True(Csv.ParseDouble(r["cpu_ms"]) > 0, "cpu_ms"));
            Assert.Contains(",os.cpu.user_pct,", File.ReadAllText(bundle.PathOf(BundlePaths.Series(phase.Name))));
            Assert.True(bundle.Has(BundlePaths.PerfScript(phase.Name)));
            Assert.True(bundle.Has(BundlePaths.Overhead(phase.Name)));
            Assert.True(bundle.Has(BundlePaths.Waits(phase.Name)));
            using var sampling = System.Text.Json.JsonDocument.Parse(File.ReadAllText(bundle.PathOf(BundlePaths.StackInfo(phase.Name))));
            Assert.Equal(callGraph.Mode, sampling.RootElement.GetProperty("callGraph").GetString());
            Assert.Equal(callGraph.Reason, sampling.RootElement.GetProperty("callGraphReason").GetString());

            // Every sampled process's CPU by pid: the workload's backends, and this capture's own process (driver and
            // collectors, named after its main thread, not its thread pool's ".NET TP Worker").
            using var processCpu = bundle.OpenText(BundlePaths.ProcessCpu(phase.Name))!;
            var processes = Csv.ReadRows(processCpu).ToArray();
            Assert.Contains(processes, r => r["role"] == "workload" && r["name"] == "postgres" && Csv.ParseDouble(r["cpu_ms"]) > 0);
            Assert.Contains(processes, r => r["role"] == "probe" && r["name"] == "dotnet");
        }

        Assert.Contains($"CPU stacks: call graph {callGraph.Mode} ({callGraph.Reason})", File.ReadAllText(Path.Combine(dir, BundlePaths.Log)));

        var profile = new StackProfile();
        using (var folded = bundle.OpenText(BundlePaths.Stacks("load"))!)
        {
            FoldedStackFormat.ReadInto(folded, "stacks.folded", profile, firstFrameIsProcess: true);
        }

        var shares = ModuleShares.Compute(profile, "postgres");
        Assert.True(shares.Count > 0, "no postgres samples in the load phase's stacks");
        var top = shares.OrderByDescending(s => s.ExclusiveWeight).First();
        Assert.Equal("libcrypto.so.3", top.Module);

        // DWARF unwinding walks through libcrypto, which has no frame pointers: the heaviest path into it reaches
        // PostgreSQL's own functions, [unknown] stays small, and the report does not ask for another call graph.
        var path = Assert.Single(SqlWaitProbe.Analysis.Ledger.CallPaths.IntoModule(profile, "postgres", "libcrypto.so.3", kernel: false, top: 1));
        Assert.Contains(path.Frames, f => f.StartsWith("postgres!", StringComparison.Ordinal) && f != "postgres!?" && f != "postgres!_start");
        var postgresWeight = profile.Entries.Where(e => e.Process == "postgres").Sum(e => e.Weight);
        var unknown = profile.Entries.Where(e => e.Process == "postgres" && profile.FramesOf(e.StackId).Any(f => f.Symbol == "[unknown]")).Sum(e => e.Weight);
        Assert.True(unknown < postgresWeight * 0.05, $"[unknown] holds {unknown} of {postgresWeight} ns inclusive");
        var report = File.ReadAllText(Path.Combine(dir, "report", "report.md"));
        Assert.Contains("stack completeness of postgres", report);
        Assert.Contains($"phase load: call graph: dwarf ({callGraph.Reason})", report);
        Assert.DoesNotContain("capture again with --call-graph dwarf", report);
        Assert.DoesNotContain("stacks-incomplete", File.ReadAllText(Path.Combine(dir, "report", "findings.json")));

        // perf's weights are nanoseconds of cpu-clock: no report file or flame graph tooltip calls them samples.
        foreach (var file in Directory.EnumerateFiles(Path.Combine(dir, "report"), "*", SearchOption.AllDirectories).Where(f => !f.EndsWith(".png", StringComparison.Ordinal)))
        {
            Assert.DoesNotMatch(@"\d{9,} samples", File.ReadAllText(file));
        }

        Assert.Contains("\"unit\":\"nanoseconds\"", File.ReadAllText(Path.Combine(dir, "report", "load.speedscope.json")));
        Assert.True(File.Exists(Path.Combine(dir, "report", "report.html")));
        AssertFindingsAsAUserReadsThem(Path.Combine(dir, "report", "findings.json"));
        // The schema in docs/ holds for what a real capture writes, not only for crafted bundles.
        ReportSchemas.AssertValid(ReportSchemas.Findings, File.ReadAllText(Path.Combine(dir, "report", "findings.json")));
        Assert.False(Directory.Exists(Path.Combine(Path.GetTempPath(), EmbeddedPostgres.FolderPrefix + m.RunId)));
        Assert.Empty(ProcessesMentioning(m.RunId));
    }

    /// <summary>Processes whose command line mentions <paramref name="text"/> (the run id is in the server's data path and perf's output path).</summary>
    internal static List<int> ProcessesMentioning(string text)
    {
        var found = new List<int>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), out var pid))
            {
                continue;
            }

            try
            {
                if (File.ReadAllText(Path.Combine(dir, "cmdline")).Contains(text, StringComparison.Ordinal))
                {
                    found.Add(pid);
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
            }
        }

        return found;
    }

    /// <summary>What the issue's acceptance reads in findings.json: both phases, libcrypto on top under load, a closed ledger.</summary>
    private static void AssertFindingsAsAUserReadsThem(string path)
    {
        using var json = System.Text.Json.JsonDocument.Parse(File.ReadAllText(path));
        var phases = json.RootElement.GetProperty("phases").EnumerateArray().ToArray();
        Assert.Equal(["baseline", "load"], phases.Select(p => p.GetProperty("name").GetString()));
        foreach (var phase in phases)
        {
            var ledger = phase.GetProperty("ledger");
            var session = ledger.GetProperty("sessionSeconds").GetDouble();
            var parts = ledger.GetProperty("waits").EnumerateArray().Sum(w => w.GetProperty("seconds").GetDouble())
                + ledger.GetProperty("cpuSeconds").GetDouble() + ledger.GetProperty("unaccountedSeconds").GetDouble();
            Assert.True(session > 0);
            Assert.True(Math.Abs(session - parts) <= 0.01 * session, $"ledger of {phase.GetProperty("name")} does not close: {session} vs {parts}");
        }

        var loadModules = phases[1].GetProperty("modules").EnumerateArray()
            .Where(m => m.GetProperty("process").GetString() == "postgres")
            .OrderByDescending(m => m.GetProperty("exclusiveShare").GetDouble());
        Assert.Equal("libcrypto.so.3", loadModules.First().GetProperty("module").GetString());
        Assert.NotEmpty(json.RootElement.GetProperty("findings").EnumerateArray());
        Assert.NotEmpty(json.RootElement.GetProperty("growth").EnumerateArray());
    }
}
