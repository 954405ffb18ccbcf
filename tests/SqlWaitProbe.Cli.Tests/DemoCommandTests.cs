using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe demo</c> end to end, as the README's first command: an embedded PostgreSQL, hashbytes at 1 then 2
/// sessions, perf stacks, the report. Its phases are shortened (a hidden option the tests use); everything else is
/// what a user runs. Known answer: the workload's cost is OpenSSL's algorithm fetch under pgcrypto's digest.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class DemoCommandTests
{
    [Fact]
    public async Task The_demo_exits_0_with_a_complete_bundle_a_report_and_a_line_naming_pgcrypto_and_libcrypto()
    {
        var dir = Path.Combine(TestData.TempFolder("demo"), "bundle");

        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(4), "demo", "--duration", "4s", "-o", dir);

        Assert.True(exit == 0, stderr);
        var lines = stdout.Split('\n');
        Assert.Equal($"bundle: {dir} (complete)", lines[0]);
        Assert.Contains(lines, l => l.StartsWith("baseline ", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("load ", StringComparison.Ordinal));
        Assert.Contains($"report: {Path.Combine(dir, "report", "report.html")}", lines);

        // One verdict per phase with its next step, then the findings; one of them names the known cause: pgcrypto's
        // digest fetching its algorithm through libcrypto.
        var verdicts = lines.SkipWhile(l => l != "verdict per phase, then findings:").Skip(1).Where(l => l.StartsWith("  - ", StringComparison.Ordinal)).ToArray();
        Assert.Contains(verdicts, l => l.StartsWith("  - baseline: ", StringComparison.Ordinal) && l.Contains(" — next: ", StringComparison.Ordinal));
        Assert.Contains(verdicts, l => l.StartsWith("  - load: ", StringComparison.Ordinal) && l.Contains(" — next: ", StringComparison.Ordinal));
        Assert.Contains(verdicts, l => l.Contains("libcrypto.so.3", StringComparison.Ordinal) && l.Contains("pgcrypto.so!px_find_digest", StringComparison.Ordinal));

        using var bundle = CaptureBundle.Open(dir);
        Assert.Equal(BundleStatus.Complete, bundle.Manifest.Status);
        Assert.Empty(bundle.VerifyFiles());
        Assert.Equal(["baseline", "load"], bundle.Manifest.Phases.Select(p => p.Name));
        Assert.Equal([1, 2], bundle.Manifest.Phases.Select(p => p.Threads));
        foreach (var phase in bundle.Manifest.Phases)
        {
            Assert.True(phase.Executions > 0, $"{phase.Name}: no executions");
            Assert.True(bundle.Has(BundlePaths.Stacks(phase.Name)), $"{phase.Name}: no CPU stacks");
        }

        var report = Path.Combine(dir, "report");
        foreach (var file in new[] { "report.html", "report.md", "findings.json", "flamegraph-baseline.svg", "flamegraph-load.svg", "flamegraph-diff-baseline-vs-load.svg" })
        {
            Assert.True(new FileInfo(Path.Combine(report, file)) is { Exists: true, Length: > 0 }, $"report/{file} is missing or empty");
        }

        using var findings = JsonDocument.Parse(File.ReadAllText(Path.Combine(report, "findings.json")));
        Assert.Equal(["baseline", "load"], findings.RootElement.GetProperty("verdicts").EnumerateArray().Select(v => v.GetProperty("phase").GetString()));
        Assert.Contains("pgcrypto.so!px_find_digest", File.ReadAllText(Path.Combine(report, "report.md")), StringComparison.Ordinal);
    }
}
