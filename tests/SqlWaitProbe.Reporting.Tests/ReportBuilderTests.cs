using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

public sealed class ReportBuilderTests
{
    internal static CraftedBundle HashbytesScenario() => new CraftedBundle()
        .Phase("baseline", threads: 1, executionsPerSession: 100, msEach: 10)
        .Sessions("baseline", cpuMs: 900)
        .Wait("baseline", "SOS_SCHEDULER_YIELD", 40, signalMs: 40)
        .Stack("baseline", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc", 80)
        .Stack("baseline", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc;ntoskrnl!MiZeroPage_[k]", 20)
        .Phase("load", threads: 4, executionsPerSession: 100, msEach: 40)
        .Sessions("load", cpuMs: 14000)
        .Wait("load", "SOS_SCHEDULER_YIELD", 300, signalMs: 300)
        .Stack("load", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc", 300)
        .Stack("load", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc;ntoskrnl!MiZeroPage_[k]", 700)
        .Stack("load", "other;other!main", 50);

    [Fact]
    public async Task Report_on_a_crafted_bundle_writes_findings_json_and_markdown_findings_first()
    {
        var root = HashbytesScenario().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        var titles = await ReportBuilder.BuildAsync(bundle, output, Registered.Analysis, new Progress<string>(), CancellationToken.None);

        Assert.Contains(titles, t => t.Contains("Throughput at 4 sessions is 25% of ideal"));
        Assert.Contains(titles, t => t.StartsWith("Per-execution CPU grew 3.89×", StringComparison.Ordinal) && t.Contains("ntoskrnl"));
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "findings.json")));
        var phases = json.RootElement.GetProperty("phases");
        Assert.Equal(2, phases.GetArrayLength());
        var load = phases[1];
        Assert.Equal("load", load.GetProperty("name").GetString());
        Assert.Equal(400, load.GetProperty("executions").GetInt64());
        Assert.Equal(16.0, load.GetProperty("ledger").GetProperty("sessionSeconds").GetDouble(), 9);
        Assert.Equal(14.0, load.GetProperty("ledger").GetProperty("cpuSeconds").GetDouble(), 9);
        var top = load.GetProperty("modules")[0];
        Assert.Equal("ntoskrnl", top.GetProperty("module").GetString());
        Assert.Equal(24.5, top.GetProperty("cpuMsPerExecution").GetDouble(), 9);
        var severities = json.RootElement.GetProperty("findings").EnumerateArray().Select(f => f.GetProperty("severity").GetString()).ToArray();
        Assert.Equal("critical", severities[0]);
        Assert.Equal(severities.OrderBy(s => s switch { "critical" => 0, "warning" => 1, _ => 2 }), severities);

        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.True(md.IndexOf("## Findings", StringComparison.Ordinal) < md.IndexOf("## Time ledger", StringComparison.Ordinal));
        Assert.Contains("| ntoskrnl | yes | 70% | 70% | 24.5 |", md);
        Assert.DoesNotContain(".tmp", string.Join(",", Directory.GetFiles(output)));
    }

    [Fact]
    public async Task Sweep_levels_get_a_module_table_across_phases()
    {
        var root = HashbytesScenario()
            .Phase("8", threads: 8, executionsPerSession: 50, msEach: 80).Sessions("8", cpuMs: 30000)
            .Stack("8", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc;ntoskrnl!MiZeroPage_[k]", 900)
            .Stack("8", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc", 100)
            .Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.Contains("| module | baseline | load | 8 |", md);
        Assert.Contains("| ntoskrnl (kernel) | 1.8 | 24.5 | 67.5 |", md);
        Assert.Contains("<td>ntoskrnl (kernel)</td><td class=\"n\">1.8</td><td class=\"n\">24.5</td><td class=\"n\">67.5</td>", File.ReadAllText(Path.Combine(output, "report.html")));
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "findings.json")));
        Assert.Equal(["load", "8"], json.RootElement.GetProperty("growthByPhase").EnumerateArray().Select(g => g.GetProperty("phase").GetString()));
    }

    [Fact]
    public async Task Interrupted_bundle_says_so_at_the_top_of_the_report()
    {
        var root = HashbytesScenario().Status(BundleStatus.Interrupted, "ctrl-c").Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        var titles = await ReportBuilder.BuildAsync(bundle, output, Registered.Analysis, new Progress<string>(), CancellationToken.None);

        var md = File.ReadAllLines(Path.Combine(output, "report.md"));
        Assert.Contains("This capture is interrupted", md[2]);
        Assert.Contains(titles, t => t.StartsWith("The capture is interrupted (ctrl-c)", StringComparison.Ordinal));
    }
}
