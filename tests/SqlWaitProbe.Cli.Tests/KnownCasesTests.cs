using System.Text.Json;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Captures of cases whose answer is known by construction (docs/analysis.md, "Cases with known answers"), each
/// a few seconds on the embedded server; every test asserts what the report says.
/// </summary>
[Collection(KnownCasesCollection.Name)]
public sealed class KnownCasesTests
{
    [Fact]
    public async Task Oversubscribed_sessions_get_cpu_within_the_physical_bound_and_the_rest_is_run_queue()
    {
        // 4 sessions per logical CPU: each can be on a CPU at most a quarter of the time.
        var threads = 4 * Environment.ProcessorCount;
        var (phase, findings) = await CaptureAsync("hashbytes", threads, "--scale", "0.25");

        var ledger = phase.GetProperty("ledger");
        var session = ledger.GetProperty("sessionSeconds").GetDouble();
        var cpu = ledger.GetProperty("cpuSeconds").GetDouble() / session;
        var runQueue = Cause(ledger, "run queue") / session;
        var bound = ledger.GetProperty("span").GetProperty("cpuShareBound").GetDouble();
        // Sessions finish their last executions one by one, so on average a little fewer than all of them are busy.
        Assert.True(bound <= 0.3, $"bound {bound}: the sessions were not all busy");
        Assert.True(cpu <= bound + 0.01, $"CPU {cpu:P1} above the physical bound {bound:P1}");
        Assert.True(cpu + runQueue >= 0.97, $"CPU {cpu:P1} + run queue {runQueue:P1} leave time unexplained in a CPU-bound case");
        Assert.True(Math.Abs(Remainder(ledger) / session) <= 0.03, $"remainder {Remainder(ledger) / session:P1} outside ±3%");
        Assert.Contains(findings, f => f.GetProperty("id").GetString() == "high-run-queue");
    }

    internal static async Task<(JsonElement Phase, JsonElement[] Findings)> CaptureAsync(string workload, int threads, params string[] extra)
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        string[] args = ["capture", "--engine", "postgres", "--workload", workload, "--threads", threads.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "--duration", "6s", "--no-baseline", "-o", dir, .. extra];
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2), args);
        Assert.True(exit == 0, stderr);
        var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "report", "findings.json"))).RootElement;
        var phase = json.GetProperty("phases").EnumerateArray().Single();
        return (phase, json.GetProperty("findings").EnumerateArray().ToArray());
    }

    internal static double Cause(JsonElement ledger, string prefix) =>
        ledger.GetProperty("unaccountedCauses").EnumerateArray()
            .Where(c => c.GetProperty("cause").GetString()!.StartsWith(prefix, StringComparison.Ordinal))
            .Sum(c => c.GetProperty("seconds").GetDouble());

    internal static double Remainder(JsonElement ledger) => ledger.GetProperty("unaccountedCauses").EnumerateArray().Last().GetProperty("seconds").GetDouble();
}
