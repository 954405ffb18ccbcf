using System.Globalization;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>
/// Known answers for saturation: four CPU-bound sessions on two CPUs. The baseline runs one session at 960 ms per
/// execution, all of it CPU, so the machine's ceiling is 2 CPUs ÷ 0.96 CPU s = 2.08 executions/s; the load phase runs
/// 4 × 10 executions of 1,970 ms (2.03/s), 835 CPU ms each (13% less than the baseline) and 1,110 ms in the run queue.
/// </summary>
public sealed class SaturationKnownAnswerTests
{
    private static CraftedBundle Oversubscribed() => new CraftedBundle("postgres", "postgres") { LogicalCpus = 2 }
        .Phase("baseline", 1, 20, 960).Sessions("baseline", cpuMs: 20 * 960, runQueueMs: 100).Wait("baseline", "LWLock:BufferContent", 20)
        .Stack("baseline", "postgres;postgres!ExecScan;pgcrypto.so!px_find_digest;libcrypto.so.3!EVP_MD_fetch", 90).Stack("baseline", "postgres;postgres!ExecScan", 10)
        .Phase("load", 4, 10, 1970).Sessions("load", cpuMs: 40 * 835, runQueueMs: 40 * 1110).Wait("load", "LWLock:BufferContent", 100)
        .Stack("load", "postgres;postgres!ExecScan;pgcrypto.so!px_find_digest;libcrypto.so.3!EVP_MD_fetch", 90).Stack("load", "postgres;postgres!ExecScan", 10);

    [Fact]
    public async Task As_many_sessions_as_cpus_on_a_machine_others_share_are_not_told_to_run_fewer_sessions()
    {
        // Two CPU-bound sessions on two CPUs that kept them 82% busy and still waited 18% of their time for a CPU: the
        // CPUs are taken, but fewer sessions would not help; the waiting was other work on the same CPUs.
        var root = new CraftedBundle("postgres", "postgres") { LogicalCpus = 2 }
            .Phase("baseline", 1, 20, 960).Sessions("baseline", cpuMs: 20 * 960, runQueueMs: 100)
            .Phase("load", 2, 20, 1070).Sessions("load", cpuMs: 40 * 880, runQueueMs: 40 * 190).Write();
        using var bundle = CaptureBundle.Open(root);

        var result = await ReportBuilder.BuildReportAsync(bundle, Path.Combine(root, "report"), new ReportOptions { Modules = Registered.Analysis, Png = false, FlameGraphs = null }, new Progress<string>(), CancellationToken.None);

        var load = Assert.Single(result.Analysis.Findings, f => f.Phase == "load" && f.Id == "cpu-saturation");
        Assert.Contains("2 sessions kept them", load.Title, StringComparison.Ordinal);
        Assert.StartsWith("the machine is the limit: 2 sessions on 2 CPUs use them all, and the time they waited for a CPU went to other work on the same CPUs", load.Next, StringComparison.Ordinal);
        Assert.DoesNotContain("run at most", load.Next, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Four_cpu_bound_sessions_on_two_cpus_get_one_finding_cpu_saturation_against_the_machines_ceiling()
    {
        var root = Oversubscribed().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false, FlameGraphs = null }, new Progress<string>(), CancellationToken.None);

        // One cause, one finding: the run queue, the time waits do not explain and the throughput short of 4 × the
        // baseline rate are the saturation, not findings of their own.
        var a = result.Analysis;
        var load = Assert.Single(a.Findings, f => f.Phase == "load" && f.Severity is "critical" or "warning");
        Assert.Equal("cpu-saturation", load.Id);
        Assert.Equal("critical", load.Severity);
        Assert.DoesNotContain(a.Findings, f => f.Id is "high-run-queue" or "waits-explain-little" or "throughput-vs-ideal" && f.Phase == "load");
        Assert.Equal(
            "In load, the 2 CPUs are saturated: 4 sessions kept them 85% busy and ran at 97% of the machine's ceiling (2.03 of 2.08 executions/s); "
            + "sessions waited for a CPU 56% of their time; CPU per execution fell 13% from baseline, so the engine scales and the machine is the limit",
            load.Title);
        Assert.StartsWith("the machine is the limit: run at most 2 sessions or give the server more CPUs", load.Next, StringComparison.Ordinal);

        // Each figure within its physical bound: no more CPU than the machine has, no more throughput than its ceiling,
        // CPU and run queue within session time, at most CPUs ÷ sessions of session time on a CPU.
        var ledger = a.Ledgers.Single(l => l.Phase == "load");
        var busy = ledger.CpuSeconds / (ledger.WallSeconds * 2);
        var ceiling = 2 * 1000 / a.Baseline!.CpuMsPerExecution;
        Assert.InRange(busy, 0, 1);
        Assert.InRange(ledger.ExecutionsPerSecond, 0, ceiling);
        Assert.InRange(ledger.CpuSeconds / ledger.SessionSeconds, 0, 2.0 / 4);
        Assert.InRange(ledger.CpuSeconds + ledger.UnaccountedCauses.Sum(c => Math.Max(0, c.Seconds)), 0, ledger.SessionSeconds * 1.001);

        // The ideal is the machine's, not 4 × the baseline: 2.08/s, and 2.03/s is 97% of it.
        var row = a.Scalability.Single(r => r.Phase == "load");
        Assert.Equal(2.083, row.IdealExecutionsPerSecond, 3);
        Assert.Equal(0.975, row.VsIdeal, 3);

        // What the report says on its first screen: the verdict per phase, with the next step.
        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        var verdict = md[md.IndexOf("## Verdict", StringComparison.Ordinal)..md.IndexOf("## Findings", StringComparison.Ordinal)];
        Assert.Contains("- **load** (critical): In load, the 2 CPUs are saturated", verdict, StringComparison.Ordinal);
        Assert.Contains("**Next:** the machine is the limit: run at most 2 sessions", verdict, StringComparison.Ordinal);
        Assert.Contains("- **baseline** (info):", verdict, StringComparison.Ordinal);
        Assert.True(md.IndexOf("## Verdict", StringComparison.Ordinal) < md.IndexOf("## Findings", StringComparison.Ordinal));
        Assert.Contains("| load | 4 | 2.03 | 1970 | 2.08 | 97% |", md, StringComparison.Ordinal);

        // Every finding ends with its next step, in the report and in findings.json.
        Assert.All(a.Findings, f => Assert.False(string.IsNullOrWhiteSpace(f.Next), f.Id));
        Assert.Equal(a.Findings.Count + a.Verdicts.Count, md.Split("  - **Next:** ").Length - 1);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "findings.json")));
        var verdicts = json.RootElement.GetProperty("verdicts");
        Assert.Equal(["baseline", "load"], verdicts.EnumerateArray().Select(v => v.GetProperty("phase").GetString()));
        Assert.Equal("cpu-saturation", verdicts[1].GetProperty("findingId").GetString());
        Assert.Equal(load.Title, verdicts[1].GetProperty("verdict").GetString());
        Assert.Equal(row.IdealExecutionsPerSecond.ToString("0.######", CultureInfo.InvariantCulture),
            json.RootElement.GetProperty("scalability")[1].GetProperty("idealExecutionsPerSecond").GetDouble().ToString("0.######", CultureInfo.InvariantCulture));
    }

    [Fact]
    public async Task Sessions_within_the_cpus_on_an_idle_machine_are_not_saturation()
    {
        // Two sessions on two CPUs, no run queue: busy, but nothing waits for a CPU.
        var root = new CraftedBundle("postgres", "postgres") { LogicalCpus = 2 }
            .Phase("baseline", 1, 20, 960).Sessions("baseline", cpuMs: 20 * 960, runQueueMs: 0)
            .Phase("load", 2, 20, 960).Sessions("load", cpuMs: 40 * 960, runQueueMs: 0).Write();
        using var bundle = CaptureBundle.Open(root);

        var result = await ReportBuilder.BuildReportAsync(bundle, Path.Combine(root, "report"), new ReportOptions { Modules = Registered.Analysis, Png = false, FlameGraphs = null }, new Progress<string>(), CancellationToken.None);

        Assert.DoesNotContain(result.Analysis.Findings, f => f.Id == "cpu-saturation");
        Assert.Equal(2.083, result.Analysis.Scalability.Single(r => r.Phase == "load").IdealExecutionsPerSecond, 3);
    }
}
