using System.Globalization;
using System.Text.Json;
using System.Xml.Linq;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

public sealed class StacksViewCommandTests
{
    private static readonly string RealCapture = TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz");

    [Fact]
    public async Task Modules_put_libcrypto_first_for_postgres()
    {
        var (exit, stdout, _) = await InProcessProbe.RunAsync("stacks", "modules", RealCapture, "--process", "postgres", "--format", "csv");
        Assert.Equal(0, exit);
        var rows = stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal("process,module,kernel,exclusiveWeight,inclusiveWeight,exclusiveShare,inclusiveShare", rows[0]);
        var first = rows[1].Split(',');
        Assert.Equal("postgres", first[0]);
        Assert.Equal("libcrypto.so.3", first[1]);
        Assert.Equal("0", first[2]);
        Assert.InRange(double.Parse(first[5], CultureInfo.InvariantCulture), 0.45, 0.51);
        Assert.Contains(rows, r => r.StartsWith("postgres,[kernel.kallsyms],1,", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Modules_json_and_table_agree()
    {
        var (exit, json, _) = await InProcessProbe.RunAsync("stacks", "modules", RealCapture, "--format", "json");
        Assert.Equal(0, exit);
        using var doc = JsonDocument.Parse(json);
        var postgres = doc.RootElement.EnumerateArray().First(e => e.GetProperty("process").GetString() == "postgres");
        Assert.Equal("libcrypto.so.3", postgres.GetProperty("module").GetString());
        var (tableExit, table, _) = await InProcessProbe.RunAsync("stacks", "modules", RealCapture, "--process", "postgres");
        Assert.Equal(0, tableExit);
        Assert.Contains("libcrypto.so.3", table);
        Assert.Contains("48.", table);
    }

    [Fact]
    public async Task Flamegraph_is_a_self_contained_interactive_svg()
    {
        var output = Path.Combine(TestData.TempFolder(), "pg.svg");
        var (exit, _, err) = await InProcessProbe.RunAsync("stacks", "flamegraph", RealCapture, "-o", output, "--title", "digest baseline");
        Assert.Equal(0, exit);
        Assert.Equal(string.Empty, err);
        var svg = File.ReadAllText(output);
        var doc = XDocument.Parse(svg);
        Assert.Equal("svg", doc.Root!.Name.LocalName);
        Assert.Contains("digest baseline", svg);
        Assert.Contains("<script", svg);
        Assert.DoesNotContain("href=", svg);
        Assert.Contains("CRYPTO_THREAD_read_lock", svg);
        Assert.Contains("libcrypto.so.3", svg);
    }

    [Fact]
    public async Task Diff_folded_matches_difffolded()
    {
        var before = TestData.Path("folded/diff-folded/before.txt");
        var after = TestData.Path("folded/diff-folded/after.txt");
        foreach (var (extra, result) in new[] { (Array.Empty<string>(), "result-default.txt"), (new[] { "--normalize" }, "result-normalize.txt") })
        {
            var (exit, stdout, _) = await InProcessProbe.RunAsync(["stacks", "diff", before, after, "--folded", .. extra]);
            Assert.Equal(0, exit);
            var expected = File.ReadAllLines(TestData.Path("folded/diff-folded/" + result)).Where(l => l.Length > 0).Order(StringComparer.Ordinal);
            Assert.Equal(expected, stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries).Order(StringComparer.Ordinal));
        }
    }

    [Fact]
    public async Task Diff_svg_per_execution_colours_growth_red()
    {
        var folder = TestData.TempFolder();
        var a = Path.Combine(folder, "a.folded");
        var b = Path.Combine(folder, "b.folded");
        File.WriteAllText(a, "app;main;work 100\napp;main;idle 100\n");
        File.WriteAllText(b, "app;main;work 400\napp;main;idle 100\n");
        var output = Path.Combine(folder, "diff.svg");
        var (exit, _, _) = await InProcessProbe.RunAsync("stacks", "diff", a, b, "-o", output, "--a-executions", "10", "--b-executions", "10");
        Assert.Equal(0, exit);
        var doc = XDocument.Parse(File.ReadAllText(output));
        XNamespace ns = "http://www.w3.org/2000/svg";
        var work = doc.Descendants(ns + "g").Single(g => g.Element(ns + "title")?.Value.StartsWith("work\n", StringComparison.Ordinal) == true);
        var idle = doc.Descendants(ns + "g").Single(g => g.Element(ns + "title")?.Value.StartsWith("idle\n", StringComparison.Ordinal) == true);
        Assert.Contains("before 10, after 40", work.Element(ns + "title")!.Value);
        Assert.Contains("+300%", work.Element(ns + "title")!.Value);
        Assert.StartsWith("rgb(255,", work.Element(ns + "rect")!.Attribute("fill")!.Value);
        Assert.Equal("rgb(255,255,255)", idle.Element(ns + "rect")!.Attribute("fill")!.Value);
    }

    [Fact]
    public async Task Diff_of_a_profile_with_itself_is_white_and_compares_shares_without_counts()
    {
        var output = Path.Combine(TestData.TempFolder(), "same.svg");
        var (exit, _, _) = await InProcessProbe.RunAsync("stacks", "diff", RealCapture, RealCapture, "-o", output);
        Assert.Equal(0, exit);
        var doc = XDocument.Parse(File.ReadAllText(output));
        XNamespace ns = "http://www.w3.org/2000/svg";
        var frames = doc.Descendants(ns + "g").Where(g => g.Element(ns + "rect") is not null && g.Element(ns + "title") is not null).ToList();
        Assert.NotEmpty(frames);
        Assert.All(frames, g => Assert.Equal("rgb(255,255,255)", g.Element(ns + "rect")!.Attribute("fill")!.Value));
        Assert.Contains("% of all samples (+0%)", frames[0].Element(ns + "title")!.Value);
    }

    [Fact]
    public async Task Speedscope_round_trips_to_the_folded_totals()
    {
        var output = Path.Combine(TestData.TempFolder(), "pg.speedscope.json");
        var (exit, _, _) = await InProcessProbe.RunAsync("stacks", "speedscope", RealCapture, "-o", output);
        Assert.Equal(0, exit);
        using var doc = JsonDocument.Parse(File.ReadAllText(output));
        var root = doc.RootElement;
        Assert.Equal("https://www.speedscope.app/file-format-schema.json", root.GetProperty("$schema").GetString());
        Assert.StartsWith("probe@", root.GetProperty("exporter").GetString());
        var frameCount = root.GetProperty("shared").GetProperty("frames").GetArrayLength();
        var (_, folded, _) = await InProcessProbe.RunAsync("stacks", "fold", RealCapture);
        var totals = StacksCli.ParseFolded(folded).GroupBy(e => e.Key.Split(';')[0]).ToDictionary(g => g.Key, g => g.Sum(e => e.Value));
        foreach (var profile in root.GetProperty("profiles").EnumerateArray())
        {
            Assert.Equal("sampled", profile.GetProperty("type").GetString());
            var weights = profile.GetProperty("weights").EnumerateArray().Sum(w => w.GetInt64());
            Assert.Equal(totals[profile.GetProperty("name").GetString()!], weights);
            Assert.Equal(weights, profile.GetProperty("endValue").GetInt64());
            Assert.All(profile.GetProperty("samples").EnumerateArray().SelectMany(s => s.EnumerateArray()), i => Assert.InRange(i.GetInt32(), 0, frameCount - 1));
        }

        Assert.Equal(totals.Count, root.GetProperty("profiles").GetArrayLength());
    }

    [Fact]
    public async Task Focus_lists_callers_and_callees()
    {
        var (exit, stdout, _) = await InProcessProbe.RunAsync("stacks", "focus", RealCapture, "--focus", "pgcrypto.so!pg_digest");
        Assert.Equal(0, exit);
        Assert.Contains("Callers", stdout);
        Assert.Contains("Callees", stdout);
        Assert.Contains("libcrypto.so.3", stdout);
        var (none, _, err) = await InProcessProbe.RunAsync("stacks", "focus", RealCapture, "--focus", "no_such_function_anywhere");
        Assert.Equal(2, none);
        Assert.Contains("no frame matches", err);
    }
}
