using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Reporting.Output;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>A finding's source bracket is shown once for the lines it covers, not on every bullet; findings.json keeps each line whole.</summary>
public sealed class EvidenceSourcesTests
{
    [Fact]
    public void Consecutive_lines_of_one_source_show_it_on_the_first_only()
    {
        var shown = EvidenceSources.ShownOnce([
            "libcrypto.so.3: 48% of samples [cpu/stacks.folded × session_timeline.csv (/proc/<pid>/schedstat)]",
            "libc.so.6: 32% of samples [cpu/stacks.folded × session_timeline.csv (/proc/<pid>/schedstat)]",
            "heaviest stack tag: OpenSSL (other), 44% of samples [cpu/stacks.folded, stack tags]",
            "all other processes: 16.2 CPU s",
            "[kernel.kallsyms]: 1% [cpu/stacks.folded, stack tags]",
        ]);

        Assert.Equal([
            "libcrypto.so.3: 48% of samples [cpu/stacks.folded × session_timeline.csv (/proc/<pid>/schedstat)]",
            "libc.so.6: 32% of samples",
            "heaviest stack tag: OpenSSL (other), 44% of samples [cpu/stacks.folded, stack tags]",
            "all other processes: 16.2 CPU s",
            "[kernel.kallsyms]: 1% [cpu/stacks.folded, stack tags]",
        ], shown);
    }

    [Fact]
    public async Task The_report_of_a_real_capture_names_each_source_once_per_run_of_lines_and_findings_json_on_every_line()
    {
        var root = new CraftedBundle("postgres", "postgres", workload: "hashbytes")
            .Phase("load", threads: 2, executionsPerSession: 4, msEach: 1500)
            .Sessions("load", cpuMs: 6000)
            .Write();
        var gz = Path.Combine(root, BundlePaths.PerfScript("load"));
        Directory.CreateDirectory(Path.GetDirectoryName(gz)!);
        File.Copy(TestData.Path("perf-script/local__pg15-digest-2sessions-dwarf.perf.txt.gz"), gz);
        PerfScriptNormalizer.Normalize(root, "load", sampleHz: 499, logicalCpus: 2, durationSeconds: 6, callGraph: "dwarf", callGraphReason: "--call-graph dwarf given");
        var manifestPath = Path.Combine(root, BundlePaths.Manifest);
        File.WriteAllText(manifestPath, JsonSerializer.Serialize(CaptureBundle.ReadManifest(manifestPath) with { Files = BundleWriter.HashFolder(root) }, ProbeJson.Options));
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "findings.json")));
        var module = json.RootElement.GetProperty("findings").EnumerateArray().Single(f => f.GetProperty("id").GetString() == "cpu-top-module");
        var evidence = module.GetProperty("evidence").EnumerateArray().Select(e => e.GetString()!).ToArray();
        var repeated = evidence.Select(EvidenceSources.TrailingBracket).Where(b => b is not null).GroupBy(b => b).Single(g => g.Count() > 1).Key!;

        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        var finding = md[md.IndexOf("(`cpu-top-module`)", StringComparison.Ordinal)..];
        finding = finding[..finding.IndexOf("**Next:**", StringComparison.Ordinal)];
        // The source's words up to the first character either format escapes: the same text in both reports.
        var core = repeated[1..repeated.IndexOfAny(['<', '>', '[', ']', '(', ')', '*', '_', '`', '\'', '&', '\\'], 1)].TrimEnd();
        Assert.True(core.Length >= 10, core);
        Assert.True(evidence.Count(e => e.Contains(core, StringComparison.Ordinal)) > 1, $"findings.json: '{core}' on one line only");
        Assert.Equal(1, Count(finding, core));
        Assert.Equal(1, Count(File.ReadAllText(Path.Combine(output, "report.html")).Split("<code>cpu-top-module</code>")[1].Split("Next:")[0], core));
    }

    private static int Count(string text, string part)
    {
        var n = 0;
        for (var i = text.IndexOf(part, StringComparison.Ordinal); i >= 0; i = text.IndexOf(part, i + part.Length, StringComparison.Ordinal))
        {
            n++;
        }

        return n;
    }
}
