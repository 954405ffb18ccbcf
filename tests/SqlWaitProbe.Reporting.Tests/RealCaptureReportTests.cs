using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

public sealed class RealCaptureReportTests
{
    [Fact]
    public async Task Report_on_a_real_pgcrypto_perf_capture_names_libcrypto_as_the_top_module()
    {
        // Executions and CPU are crafted; the stacks come from a real perf capture of PostgreSQL 15 running pgcrypto digest.
        var root = new CraftedBundle("postgres", "postgres", workload: "pg-digest")
            .Phase("load", threads: 1, executionsPerSession: 4, msEach: 2160)
            .Sessions("load", cpuMs: 8400, runQueueMs: 30)
            .Write();
        var gz = Path.Combine(root, BundlePaths.PerfScript("load"));
        Directory.CreateDirectory(Path.GetDirectoryName(gz)!);
        File.Copy(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz"), gz);
        var samples = PerfScriptNormalizer.Normalize(root, "load", sampleHz: 99, logicalCpus: 2, durationSeconds: 8.64, callGraph: "fp",
            callGraphReason: "auto: the phase length is not known before it runs (--iterations), so DWARF's data cannot be bounded");
        var manifestPath = Path.Combine(root, BundlePaths.Manifest);
        var manifest = CaptureBundle.ReadManifest(manifestPath);
        File.WriteAllText(manifestPath, JsonSerializer.Serialize(manifest with { Files = BundleWriter.HashFolder(root) }, ProbeJson.Options));
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis }, new Progress<string>(), CancellationToken.None);

        Assert.True(samples > 100, $"{samples} samples");
        var load = result.Analysis.Ledgers[0];
        Assert.StartsWith("libcrypto", load.Modules[0].Module, StringComparison.Ordinal);
        Assert.Equal("postgres", load.Modules[0].Process);
        Assert.StartsWith("OpenSSL", load.Tags[0].Tag, StringComparison.Ordinal);
        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.Matches(@"\| libcrypto\.so[^|]* \|  \| \d+%", md);
        var svg = File.ReadAllText(Path.Combine(output, "flamegraph-load.svg"));
        Assert.Contains("libcrypto", svg);
        var html = File.ReadAllText(Path.Combine(output, "report.html"));
        Assert.Contains("libcrypto", html);

        // Recorded with frame pointers, which stop in libcrypto and glibc: the report names the share and asks for dwarf,
        // in the findings (HTML, Markdown, JSON) and in Data quality.
        var incomplete = Assert.Single(result.Analysis.Findings, f => f.Id == "stacks-incomplete");
        Assert.Matches(@"^In load, \d+% of postgres's CPU samples have stacks that stop short of a thread's first function, so call paths lose their callers: capture again with --call-graph dwarf$", incomplete.Title);
        Assert.Contains(incomplete.Title, md);
        Assert.Contains("capture again with --call-graph dwarf", html);
        using (var findings = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "findings.json"))))
        {
            Assert.Contains("stacks-incomplete", findings.RootElement.ToString());
        }

        Assert.Contains(result.Analysis.DataQuality, l => l.Contains("stack completeness of postgres", StringComparison.Ordinal) && l.Contains("samples lost", StringComparison.Ordinal));
        Assert.Contains(result.Analysis.DataQuality, l => l.Contains("remedy", StringComparison.Ordinal) && l.Contains("record with --call-graph dwarf", StringComparison.Ordinal));

        // Which call graph and why, as sampling.json records it, in Data quality of every report format.
        const string callGraphLine = "phase load: call graph: fp (auto: the phase length is not known before it runs (--iterations), so DWARF's data cannot be bounded)";
        Assert.Contains(callGraphLine, result.Analysis.DataQuality);
        Assert.Contains(callGraphLine, md);
        Assert.Contains(callGraphLine[..callGraphLine.IndexOf(", so", StringComparison.Ordinal)], html);
    }

    [Fact]
    public async Task Report_on_a_real_dwarf_capture_of_the_digest_workload_names_the_algorithm_fetch_path()
    {
        // The stacks of a real 2-session hashbytes capture (DWARF unwinding): Debian's libcrypto has no symbols for
        // OpenSSL's internal functions, so the heaviest path into it ends at an unnamed frame.
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

        var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

        var a = result.Analysis;
        var path = a.CallPathsIntoFastest[0];
        Assert.Equal("libcrypto.so.3", a.CallPathsModule);
        Assert.True(path.EndsUnnamed, string.Join(" → ", path.Frames));
        Assert.Equal("pgcrypto.so!px_find_digest", path.NamedAs);
        Assert.Equal("libcrypto.so.3!EVP_MD_fetch", path.Inside[0].Function);
        var hot = a.Ledgers[0].HotFunctions.Select(h => h.Function).ToArray();
        Assert.Contains("pgcrypto.so!px_find_digest", hot);
        Assert.Contains("libcrypto.so.3!EVP_MD_fetch", hot);
        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.Contains("named by `pgcrypto.so!px_find_digest`, which calls `libcrypto.so.3!EVP_MD_fetch`", md);
        Assert.Matches(@"\| pgcrypto\.so!px_find_digest \| \d+%", md);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "findings.json")));
        Assert.Equal("pgcrypto.so!px_find_digest", json.RootElement.GetProperty("callPaths")[0].GetProperty("namedAs").GetString());
        Assert.Contains(json.RootElement.GetProperty("phases")[0].GetProperty("hotFunctions").EnumerateArray(), h => h.GetProperty("function").GetString() == "libcrypto.so.3!EVP_MD_fetch");
        // libc's start-up frames are on every stack: its inclusive share counts only what runs below them.
        Assert.True(a.Ledgers[0].Modules.Single(m => m.Module == "libc.so.6").InclusiveShare < 0.9);
    }
}
