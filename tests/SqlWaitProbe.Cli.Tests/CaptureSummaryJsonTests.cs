using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>A scripted capture: the summary as JSON on stdout, progress on stderr, and the counts of both agreeing with the bundle.</summary>
public sealed class CaptureSummaryJsonTests
{
    [Fact]
    public async Task A_capture_summary_in_json_agrees_with_the_bundle_and_the_progress_lines()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(3),
            "capture", "--engine", "postgres", "--sql", TestData.IdleWorkload(), "--threads", "2", "--duration", "00:00:04", "--cpu", "none", "--no-analyze", "--format", "json", "-o", dir);
        Assert.True(exit == 0, stderr);

        using var json = JsonDocument.Parse(stdout);
        var root = json.RootElement;
        Assert.Equal(dir, root.GetProperty("bundle").GetString());
        Assert.Equal("complete", root.GetProperty("status").GetString());
        using var bundle = CaptureBundle.Open(dir);
        var phases = root.GetProperty("phases").EnumerateArray().ToArray();
        Assert.Equal(bundle.Manifest.Phases.Select(p => p.Name), phases.Select(p => p.GetProperty("name").GetString()));
        foreach (var phase in phases)
        {
            var name = phase.GetProperty("name").GetString()!;
            var executions = phase.GetProperty("executions").GetInt64();
            Assert.Equal(bundle.Manifest.Phases.Single(p => p.Name == name).Executions, executions);
            Assert.Equal(executions, File.ReadAllLines(bundle.PathOf(BundlePaths.Executions(name))).Length - 1);
            Assert.True(phase.GetProperty("latencyMs").GetProperty("p50").GetDouble() > 0);

            // The last progress line of the phase counts what the summary counts, apart from executions that ended
            // after it was printed; the pilot before the phase is named as left out.
            var counts = Regex.Matches(stderr, $"phase {name}: \\d+ sessions?, [^,]*, (\\d+) executions?")
                .Select(m => long.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture)).ToArray();
            Assert.NotEmpty(counts);
            Assert.InRange(counts[^1], 1, executions);

            // The phase's closing line gives the summary's own count.
            var done = Regex.Match(stderr, $"phase {name} done: (\\d+) executions in the summary");
            Assert.True(done.Success, stderr);
            Assert.Equal(executions, long.Parse(done.Groups[1].Value, CultureInfo.InvariantCulture));
        }

        // A 4 s phase: a pilot of 1 s (15%, at least 1 s), longer only up to 40% of the phase.
        Assert.Contains("pilot of 1 to 1.6 s with no collector running (warms the server and measures the collectors' effect; not in the summary)", stderr);
        var log = File.ReadAllText(Path.Combine(dir, BundlePaths.Log));
        Assert.Contains("with no collector in", log);
        // A complete capture has no reason to give: its last line says so and nothing else.
        Assert.EndsWith("capture ended: complete", log.TrimEnd());
    }
}
