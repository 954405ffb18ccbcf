using System.Text.Json;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Reporting.Comparison;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

public sealed class CompareReportTests
{
    /// <summary>
    /// Before: 2 sessions × 50 executions of 20 ms, 18 ms CPU each, half in bcryptprimitives and half in sqldk.
    /// After: the same at 30 ms, 28 ms CPU each, two thirds in bcryptprimitives (18.67 ms) and a third in sqldk (9.33 ms).
    /// </summary>
    private static CraftedBundle Before(string memoryModel = "CONVENTIONAL")
    {
        var b = new CraftedBundle()
            .Phase("load", threads: 2, executionsPerSession: 50, msEach: 20)
            .Sessions("load", cpuMs: 1800)
            .Wait("load", "SOS_SCHEDULER_YIELD", 100)
            .Latch("load", "ACCESS_METHODS_DATASET_PARENT", 10, 50)
            .Spinlock("load", "SOS_CACHESTORE", 1000)
            .XePages("load", 0, "page_freed", "MEMORYCLERK_SOSNODE", 4, count: 10)
            .Stack("load", "sqlservr;sqllang!CStmtQuery::Execute;sqllang!HashBytes;bcryptprimitives!SymCryptSha256", 500)
            .Stack("load", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc", 500);
        b.Configuration["memory model"] = memoryModel;
        b.Configuration["max degree of parallelism"] = "0";
        return b;
    }

    private static CraftedBundle After(string workload = "hashbytes", int threads = 2)
    {
        var b = new CraftedBundle(workload: workload)
            .Phase("load", threads: threads, executionsPerSession: 50, msEach: 30)
            .Sessions("load", cpuMs: 28 * 50 * threads)
            .Wait("load", "SOS_SCHEDULER_YIELD", 100 * threads / 2.0)
            .Latch("load", "ACCESS_METHODS_DATASET_PARENT", 10, 50)
            .Spinlock("load", "SOS_CACHESTORE", 1000 * threads / 2.0)
            .XePages("load", 0, "page_freed", "MEMORYCLERK_SOSNODE", 4, count: 30)
            .Stack("load", "sqlservr;sqllang!CStmtQuery::Execute;sqllang!HashBytes;bcryptprimitives!SymCryptSha256", 1000)
            .Stack("load", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc", 500);
        b.Configuration["memory model"] = "LOCK_PAGES";
        b.Configuration["max degree of parallelism"] = "0";
        return b;
    }

    private static Task<(Analysis.Comparison.ComparisonResult Result, IReadOnlyList<string> Files, IReadOnlyList<string> Failures)> CompareAsync(string output, IReadOnlyList<string>? labels, string? phase, params string[] bundles) =>
        CompareBuilder.BuildAsync(bundles, labels, phase, output, new ReportOptions { Modules = Registered.Analysis }, new Progress<string>(), CancellationToken.None);

    [Fact]
    public async Task Compare_names_the_module_where_cpu_per_execution_changed_and_writes_markdown_html_and_json()
    {
        var output = Path.Combine(TestData.TempFolder("compare"), "out");
        var (result, files, _) = await CompareAsync(output, null, null, Before().Write(), After().Write());

        // No --label: the columns are named by what differs in the recorded configuration.
        Assert.Equal(["memory model=CONVENTIONAL", "memory model=LOCK_PAGES"], result.Labels);
        Assert.Equal(["compare.md", "compare.html", "comparison.json"], files.Take(3).Select(Path.GetFileName));
        Assert.Single(files, f => Path.GetFileName(f).StartsWith("flamegraph-diff-load-", StringComparison.Ordinal));
        Assert.Contains(files, f => f.EndsWith("charts/modules-load.png", StringComparison.Ordinal));

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "comparison.json")));
        var findings = json.RootElement.GetProperty("findings").EnumerateArray().ToArray();
        var module = findings.Single(f => f.GetProperty("id").GetString() == "compare-module-change");
        // bcrypt: 9 → 18.67 ms per execution of a +10 ms change in CPU per execution.
        Assert.Equal("In load, memory model=LOCK_PAGES spends 9.67 ms more per execution in bcryptprimitives (97% of the change in CPU per execution, which is 10 ms more); waits explain 0% of the change in session time",
            module.GetProperty("title").GetString());
        Assert.Contains(findings, f => f.GetProperty("id").GetString() == "compare-configuration" && f.GetProperty("title").GetString()!.Contains("memory model"));
        Assert.Contains(findings, f => f.GetProperty("id").GetString() == "compare-xe-frees");
        var time = findings.Single(f => f.GetProperty("id").GetString() == "compare-time-per-execution");
        Assert.Equal("warning", time.GetProperty("severity").GetString());
        Assert.StartsWith("In load, memory model=LOCK_PAGES takes 10 ms more per execution (50% more) than memory model=CONVENTIONAL", time.GetProperty("title").GetString());

        var phase = json.RootElement.GetProperty("phases")[0];
        var bcrypt = phase.GetProperty("modulesCpuMsPerExecution").EnumerateArray().First();
        Assert.Equal("bcryptprimitives", bcrypt.GetProperty("name").GetString());
        Assert.Equal(9.0, bcrypt.GetProperty("values")[0].GetDouble(), 9);
        Assert.Equal(28.0 * 2 / 3, bcrypt.GetProperty("values")[1].GetDouble(), 9);
        var latch = phase.GetProperty("latchWaitMsPerExecution")[0];
        Assert.Equal(0.5, latch.GetProperty("values")[0].GetDouble(), 9);
        var spins = phase.GetProperty("spinsPerExecution")[0];
        Assert.Equal(10.0, spins.GetProperty("values")[1].GetDouble(), 9);

        var md = File.ReadAllText(Path.Combine(output, "compare.md"));
        Assert.True(md.IndexOf("## Findings", StringComparison.Ordinal) < md.IndexOf("## Phase load", StringComparison.Ordinal));
        Assert.Contains("| bcryptprimitives | 9 | 18.7 | +9.67 | cpu/stacks.folded exclusive share × CPU ÷ executions |", md);
        Assert.Contains("| memory model | CONVENTIONAL | LOCK_PAGES | manifest.json configuration |", md);
        var html = File.ReadAllText(Path.Combine(output, "compare.html"));
        Assert.Contains("<iframe sandbox=\"allow-scripts\" title=\"flame graph load:", html);
        Assert.DoesNotContain(".tmp", string.Join(",", Directory.GetFiles(output, "*", SearchOption.AllDirectories)));
    }

    [Fact]
    public async Task A_capture_that_takes_less_time_reads_as_a_reduction_in_every_finding_not_as_a_negative_time()
    {
        // The same two captures the other way round: 30 ms per execution first, then 20 ms.
        var output = Path.Combine(TestData.TempFolder("compare"), "out");
        var (result, _, _) = await CompareAsync(output, ["slow", "fast"], null, After().Write(), Before().Write());

        var titles = result.Findings.Select(f => f.Title).ToArray();
        Assert.Contains(titles, t => t.StartsWith("In load, fast takes 10 ms less per execution (33% less) than slow", StringComparison.Ordinal));
        Assert.Contains("In load, fast spends 9.67 ms less per execution in bcryptprimitives (97% of the change in CPU per execution, which is 10 ms less)", titles.Single(t => t.Contains("bcryptprimitives", StringComparison.Ordinal)), StringComparison.Ordinal);

        // No finding's title prints a difference as a bare negative figure, as if it were a time.
        foreach (var title in titles)
        {
            Assert.DoesNotMatch(@"(^|[\s(])-\d[\d.]*( ms|%)", title);
        }
    }

    [Fact]
    public async Task Captures_of_another_workload_and_phases_compare_what_they_share_with_a_plain_warning()
    {
        var before = Before().Phase("baseline", threads: 1, executionsPerSession: 10, msEach: 10);
        var output = Path.Combine(TestData.TempFolder("compare"), "out");
        var (result, _, _) = await CompareAsync(output, ["before", "after"], null, before.Write(), After(workload: "cci-insert", threads: 4).Write());

        Assert.Equal(["load"], result.Phases.Select(p => p.Name));
        Assert.Contains(result.Warnings, w => w == "after ran workload cci-insert, before ran hashbytes: per-execution figures compare different work");
        Assert.Contains(result.Warnings, w => w.StartsWith("capture before has phases the others lack (baseline)", StringComparison.Ordinal));
        Assert.Equal("compare-mismatch", result.Findings[0].Id);

        // 2 sessions against 4: the scalability table and chart appear.
        Assert.Equal([2, 4], result.Scalability.Select(s => s.Threads));
        Assert.True(File.Exists(Path.Combine(output, "charts", "scalability.svg")));
        Assert.Contains("Warning: after ran workload cci-insert", File.ReadAllText(Path.Combine(output, "compare.html")));
    }

    [Fact]
    public async Task Labels_and_phase_that_do_not_fit_the_bundles_are_bad_input()
    {
        var (a, b) = (Before().Write(), After().Write());
        var output = Path.Combine(TestData.TempFolder("compare"), "out");

        var labels = await Assert.ThrowsAsync<BadInputException>(() => CompareAsync(output, ["only-one"], null, a, b));
        Assert.Contains("--label gives 1 label(s) for 2 bundles", labels.Message);
        var phase = await Assert.ThrowsAsync<BadInputException>(() => CompareAsync(output, ["a", "b"], "baseline", a, b));
        Assert.Contains("--phase baseline: capture a has no such phase (it has load)", phase.Message);
        await Assert.ThrowsAsync<BadInputException>(() => CompareAsync(output, null, null, a, Path.Combine(a, "no-such-bundle")));
    }

    [RequiresToolFact("/usr/bin/chromium", "chromium")]
    public async Task Compare_html_renders_in_headless_chromium_as_a_non_blank_page()
    {
        var output = Path.Combine(TestData.TempFolder("compare"), "out");
        await CompareAsync(output, ["before", "after"], null, Before().Write(), After().Write());

        var shot = await HtmlReportTests.ScreenshotAsync(new Uri(Path.Combine(output, "compare.html")).AbsoluteUri, 1280, 2400);

        var png = PngImage.Inspect(shot);
        Assert.Equal(1280, png.Width);
        Assert.True(png.DistinctColours > 20, $"only {png.DistinctColours} colours: the page looks blank");
        Assert.True(png.NonWhiteShare > 0.02, $"only {png.NonWhiteShare:P1} of pixels are not white");
    }
}
