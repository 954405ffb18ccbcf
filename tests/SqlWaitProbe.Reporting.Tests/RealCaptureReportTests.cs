using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

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
        var samples = PerfScriptNormalizer.Normalize(root, "load", sampleHz: 99, logicalCpus: 2, durationSeconds: 8.64);
        var manifestPath = Path.Combine(root, BundlePaths.Manifest);
        var manifest = CaptureBundle.ReadManifest(manifestPath);
        File.WriteAllText(manifestPath, JsonSerializer.Serialize(manifest with { Files = BundleWriter.HashFolder(root) }, ProbeJson.Options));
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions(), new Progress<string>(), CancellationToken.None);

        Assert.True(samples > 100, $"{samples} samples");
        var load = result.Analysis.Ledgers[0];
        Assert.StartsWith("libcrypto", load.Modules[0].Module, StringComparison.Ordinal);
        Assert.Equal("postgres", load.Modules[0].Process);
        Assert.StartsWith("OpenSSL", load.Tags[0].Tag, StringComparison.Ordinal);
        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.Matches(@"\| libcrypto\.so[^|]* \|  \| \d+%", md);
        var svg = File.ReadAllText(Path.Combine(output, "flamegraph-load.svg"));
        Assert.Contains("libcrypto", svg);
        Assert.Contains("libcrypto", File.ReadAllText(Path.Combine(output, "report.html")));
    }
}
