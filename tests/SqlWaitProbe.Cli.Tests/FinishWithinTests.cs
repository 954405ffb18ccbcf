using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>--finish-within</c>: the wait after a phase for executions that outlast it has a bound the user sets. Executions
/// still running then are cancelled on the server, counted by the share of their run inside the phase, and the summary,
/// the report and findings.json say so with the same figures.
/// </summary>
public sealed class FinishWithinTests
{
    [Fact]
    public async Task Executions_that_outlast_the_phase_by_more_than_finish_within_are_cancelled_and_the_summary_says_so()
    {
        // Executions of 60 s in a 2 s phase: without the bound the capture would wait a minute after the phase.
        var folder = TestData.TempFolder("finish-within");
        var sql = Path.Combine(folder, "sleep.sql");
        File.WriteAllText(sql, "SELECT pg_sleep(60)");
        var dir = Path.Combine(folder, "bundle");
        var started = DateTime.UtcNow;

        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(3),
            "capture", "--engine", "postgres", "--sql", sql, "--threads", "2", "--duration", "2s", "--finish-within", "1s", "--no-baseline", "--cpu", "none", "-o", dir);

        Assert.True(exit == 0, stderr);
        // Neither the executions nor the plan's EXPLAIN ANALYZE after the phase (bounded by --finish-within too) ran their minute.
        Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(50), $"the capture took {(DateTime.UtcNow - started).TotalSeconds:0} s: it waited for the executions");
        Assert.Contains("no plan: EXPLAIN ANALYZE of the workload statement ran longer than --finish-within (1 s)", File.ReadAllText(Path.Combine(dir, "capture.log")), StringComparison.Ordinal);
        Assert.Contains("load: 2 of 2 executions were still running at the phase end", stdout, StringComparison.Ordinal);
        Assert.Contains("2 of them were still running after --finish-within and were cancelled", stdout, StringComparison.Ordinal);
        Assert.Contains("latencies are of the 0 that finished", stdout, StringComparison.Ordinal);
        // No execution finished, so there is no latency to show, not a latency of 0 ms.
        Assert.Matches(@"(?m)^load\s+2\s+2\s+0\s+[\d.]+\s+[\d.]+\s+-\s+-\s+-\s+-\s", stdout);
        Assert.Contains("still running 1 s after the phase end (--finish-within) were cancelled", stderr, StringComparison.Ordinal);

        var rows = File.ReadAllLines(Path.Combine(dir, BundlePaths.Executions("load")));
        Assert.Equal("session,start_ms,end_ms,rows,error,cancelled", rows[0]);
        Assert.All(rows.Skip(1), r => Assert.Equal("1", Csv.Split(r)[5]));
        Assert.All(rows.Skip(1), r => Assert.Equal("", Csv.Split(r)[4]));

        using var findings = JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "report", "findings.json")));
        var load = findings.RootElement.GetProperty("phases").EnumerateArray().Single();
        Assert.Equal(2, load.GetProperty("cancelledExecutions").GetInt64());
        Assert.Equal(0, load.GetProperty("errors").GetInt64());
        // Each ran about the 2 s window and the second after it until cancelled: about two thirds of an execution each.
        Assert.InRange(load.GetProperty("countedExecutions").GetDouble(), 0.2, 2 * 2.0 / 2.9);
        var counted = load.GetProperty("countedExecutions").GetDouble().ToString("0.##", System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains($"({counted} executions in all)", stdout, StringComparison.Ordinal);

        var report = File.ReadAllText(Path.Combine(dir, "report", "report.md"));
        Assert.Contains("2 still running at the phase end, 2 of them cancelled after --finish-within", report, StringComparison.Ordinal);
        Assert.Contains("2 of them were still running after --finish-within and were cancelled", report, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--finish-within applies to phases of a --duration", "--iterations", "1", "--finish-within", "5s")]
    [InlineData("--finish-within 'soon' is not a positive duration or 0", "--finish-within", "soon")]
    public async Task A_finish_within_that_cannot_apply_is_one_line_and_exit_2(string expected, params string[] args)
    {
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), ["capture", "--engine", "postgres", "--workload", "noop", .. args]);

        Assert.Equal(2, exit);
        Assert.Contains(expected, stderr, StringComparison.Ordinal);
        Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }
}
