using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe experiment</c> with a variant that adds background CPU load: a known answer in shares of CPU time, asserted
/// as the variants' difference, which a neighbour's load adds to both.
/// </summary>
public sealed class ExperimentBackgroundLoadTests
{
    [Fact]
    public async Task A_variant_with_background_cpu_load_shows_its_sessions_waiting_in_the_run_queue()
    {
        // Known answer: 2 CPU-bound workload sessions on this 2-CPU machine, then the same beside 2 CPU-bound
        // background sessions. Four runnable processes on two CPUs: each session waits for a CPU about half its time.
        var folder = TestData.TempFolder();
        var file = Path.Combine(folder, "busy.yaml");
        File.WriteAllText(file, """
            engine: postgres
            workload:
              sql: SELECT count(*) FROM generate_series(1, 1500000)
            threads: [2]
            iterations: 12
            variants:
              - name: quiet
              - name: busy
                background:
                  sessions: 2
                  sql: SELECT count(*) FROM generate_series(1, 30000000)
            """);
        var dir = Path.Combine(folder, "out");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(4), "experiment", file, "-o", dir, "--format", "json");
        Assert.True(exit == 0, stderr + stdout);
        Assert.Equal(2, CaptureBundle.ReadManifest(Path.Combine(dir, "busy", "manifest.json")).Experiment!.BackgroundSessionIds.Count);

        using var comparison = JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "comparison", "comparison.json")));
        var ledger = comparison.RootElement.GetProperty("phases")[0].GetProperty("ledgerMsPerExecution").EnumerateArray().ToList();
        double[] Row(string prefix) => ledger.Single(r => r.GetProperty("name").GetString()!.Contains(prefix, StringComparison.Ordinal))
            .GetProperty("values").EnumerateArray().Select(v => v.ValueKind == JsonValueKind.Number ? v.GetDouble() : 0).ToArray();
        var session = Row("session time");
        var runQueue = Row("run queue");
        var (quietShare, busyShare) = (runQueue[0] / session[0], runQueue[1] / session[1]);
        Assert.True(busyShare >= 0.25, $"busy: {runQueue[1]:0.0} of {session[1]:0.0} ms per execution in the run queue ({busyShare:P0})");
        Assert.True(busyShare > quietShare, $"run queue share busy {busyShare:P0} vs quiet {quietShare:P0}");
        Assert.True(session[1] > session[0], $"session ms per execution busy {session[1]:0.0} vs quiet {session[0]:0.0}");

        // A finding names the background sessions, the CPU they took and the run queue the workload met, with the ledger's figures.
        var finding = comparison.RootElement.GetProperty("findings").EnumerateArray().Single(f => f.GetProperty("id").GetString() == "compare-background-load");
        var title = finding.GetProperty("title").GetString()!;
        Assert.StartsWith("In load of busy, 2 background sessions (SELECT count(*) FROM generate_series(1, 30000000)) took ", title, StringComparison.Ordinal);
        Assert.Contains($" CPU s and the workload's sessions waited {SqlWaitProbe.Core.Text.Figures.Pct(busyShare)} of their time in the run queue ({SqlWaitProbe.Core.Text.Figures.Pct(quietShare)} in quiet without background load)", title, StringComparison.Ordinal);
        var cpu = double.Parse(title.Split(" took ")[1].Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
        Assert.True(cpu > 0.5, $"the background sessions' CPU in the phase: {cpu} s");
    }
}
