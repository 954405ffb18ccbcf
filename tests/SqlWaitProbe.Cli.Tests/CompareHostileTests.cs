using System.Text.Json;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe compare</c> reads bundles as <c>probe analyze</c> does (the same verification, the same <c>--no-verify</c>),
/// and no two of its outputs share a file name, whatever the bundles' names or labels: it used to compare a damaged
/// bundle without a word, and to let differential flame graphs overwrite each other.
/// </summary>
public sealed class CompareHostileTests
{
    [Theory]
    [InlineData("truncated-executions", "phases/baseline/executions.csv: ")]
    [InlineData("unlisted-file", "phases/load/extra.csv: not listed in the manifest")]
    public async Task A_damaged_bundle_is_refused_as_analyze_refuses_it_and_no_verify_names_it_under_data_quality(string kind, string problem)
    {
        var folder = TestData.TempFolder("probe-compare-hostile");
        var healthy = HostileCorpus.Healthy().Write(Path.Combine(folder, "healthy"));
        var damaged = HostileCorpus.Make(kind, Path.Combine(folder, "damaged"));
        var output = Path.Combine(folder, "cmp");

        var analyze = await InProcessProbe.RunAsync("analyze", damaged, "-o", Path.Combine(folder, "report"));
        var (exit, _, stderr) = await InProcessProbe.RunAsync("compare", healthy, damaged, "-o", output);

        Assert.Equal(2, analyze.Exit);
        Assert.True(exit == 2, $"exit {exit}: {stderr}");
        Assert.Contains(problem, stderr);
        Assert.Contains("Add --no-verify", stderr);
        Assert.Single(stderr.Trim().Split('\n'), l => l.StartsWith("probe:", StringComparison.Ordinal));
        // Every bundle is checked before any is analysed: the healthy one's analysis does not scroll the refusal away.
        Assert.DoesNotContain("analysing", stderr, StringComparison.Ordinal);
        Assert.False(Directory.Exists(output));

        (exit, _, stderr) = await InProcessProbe.RunAsync("compare", healthy, damaged, "-o", output, "--no-verify");

        Assert.True(exit == 0, stderr);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "comparison.json")));
        var quality = json.RootElement.GetProperty("dataQuality").EnumerateArray().Select(e => e.GetString()!).ToList();
        Assert.Contains(quality, q => q.Contains("damaged files left out of the analysis", StringComparison.Ordinal) && q.Contains(problem.Split(':')[0], StringComparison.Ordinal));
        Assert.Contains(problem.Split(':')[0], File.ReadAllText(Path.Combine(output, "compare.md")));
    }

    [Fact]
    public async Task Bundles_whose_names_share_their_first_40_characters_get_a_flame_graph_each()
    {
        var folder = TestData.TempFolder("probe-compare-hostile");
        var prefix = "capture-of-the-nightly-regression-suite-on-db01-";
        var bundles = new[] { "monday", "tuesday", "wednesday" }.Select(day => Named(folder, prefix + day)).ToArray();

        var output = await Compare(folder, bundles);

        AssertOneFileEach(output, expected: 2 * 2);
    }

    [Fact]
    public async Task Labels_that_differ_only_in_characters_a_file_name_cannot_hold_get_a_flame_graph_each()
    {
        var folder = TestData.TempFolder("probe-compare-hostile");
        var bundles = Enumerable.Range(0, 3).Select(i => Named(folder, "b" + i)).ToArray();

        var output = await Compare(folder, bundles, "--label", "a,b/c,b:c");

        AssertOneFileEach(output, expected: 2 * 2);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "comparison.json")));
        Assert.Equal(["a", "b/c", "b:c"], json.RootElement.GetProperty("captures").EnumerateArray().Select(c => c.GetProperty("label").GetString()));
    }

    [Fact]
    public async Task Thirty_bundles_of_one_folder_name_get_labels_past_z_and_a_flame_graph_each()
    {
        var folder = TestData.TempFolder("probe-compare-hostile");
        var bundles = Enumerable.Range(0, 30).Select(i => HostileCorpus.Healthy().Write(Path.Combine(folder, i.ToString(System.Globalization.CultureInfo.InvariantCulture)))).ToArray();

        var output = await Compare(folder, bundles);

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "comparison.json")));
        var labels = json.RootElement.GetProperty("captures").EnumerateArray().Select(c => c.GetProperty("label").GetString()!).ToList();
        Assert.Equal(30, labels.Distinct(StringComparer.Ordinal).Count());
        Assert.Equal(["bundle (A)", "bundle (Z)", "bundle (AA)", "bundle (AD)"], new[] { labels[0], labels[25], labels[26], labels[29] });
        AssertOneFileEach(output, expected: 29 * 2);
    }

    private static string Named(string folder, string name)
    {
        var root = HostileCorpus.Healthy().Write(Path.Combine(folder, name + "-parent"));
        var named = Path.Combine(folder, name);
        Directory.Move(root, named);
        return named;
    }

    private static async Task<string> Compare(string folder, string[] bundles, params string[] extra)
    {
        var output = Path.Combine(folder, "cmp");
        var (exit, _, stderr) = await InProcessProbe.RunAsync(["compare", .. bundles, "-o", output, .. extra]);
        Assert.True(exit == 0, stderr);
        return output;
    }

    // Every differential flame graph is its own file: as many on disk as comparison.json lists, none listed twice, and
    // each holds the title of its own pair.
    private static void AssertOneFileEach(string output, int expected)
    {
        var onDisk = Directory.GetFiles(output, "flamegraph-diff-*.svg").Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList();
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "comparison.json")));
        var listed = json.RootElement.GetProperty("differentialFlameGraphs").EnumerateArray().Select(e => e.GetString()).Order(StringComparer.Ordinal).ToList();

        Assert.True(expected == onDisk.Count, string.Join("\n", Directory.GetFileSystemEntries(output)) + "\n" + File.ReadAllText(Path.Combine(output, "comparison.json")));
        Assert.Equal(onDisk, listed);
        var titles = onDisk.Select(f => TitleOf(File.ReadAllText(Path.Combine(output, f!)))).ToList();
        Assert.Equal(expected, titles.Distinct(StringComparer.Ordinal).Count());
    }

    private static string TitleOf(string svg) =>
        System.Text.RegularExpressions.Regex.Match(svg, "[^<>\"]* → [^<>\"]*, CPU per execution").Value;
}
