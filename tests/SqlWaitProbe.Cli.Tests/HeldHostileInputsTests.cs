using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Hostile inputs an adversarial review threw at the probe that it already handled, kept that way: manifests no JSON
/// reader should take, CSVs with other line ends, folded stacks that are not text, and comparisons of odd sets of
/// bundles. Each runs through the command a user types.
/// </summary>
public sealed class HeldHostileInputsTests
{
    public static TheoryData<string, string> Manifests() => new()
    {
        { "nesting", "maximum configured depth" },
        { "huge-integer", "does not match its schema" },
        { "huge-exponent", "does not match its schema" },
        { "nan", "is not valid JSON" },
        { "block-comment", "is not valid JSON" },
        { "line-comment", "is not valid JSON" },
        { "trailing-comma", "trailing comma" },
        { "string-of-50-mb", "a manifest is a few KiB" },
        { "schema-version-99", "schemaVersion 99 is newer than this probe reads" },
        { "schema-version-text", "schemaVersion \"1\" is not a version (a whole number from 1)" },
        { "schema-version-fraction", "schemaVersion 1.5 is not a version (a whole number from 1)" },
        { "schema-version-negative", "schemaVersion -1 is not a version (a whole number from 1)" },
    };

    [Theory]
    [MemberData(nameof(Manifests))]
    public async Task A_manifest_no_strict_json_reader_takes_is_exit_2_with_one_line(string kind, string expected)
    {
        var folder = TestData.TempFolder("probe-held-manifest");
        var root = HostileCorpus.Healthy().Write(folder);
        BundleEdit.EditManifest(root, text => Edit(kind, text));
        var report = Path.Combine(folder, "report");

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("analyze", root, "-o", report);

        Assert.True(exit == 2, $"{kind}: exit {exit}\n{stderr}");
        var line = Assert.Single(stderr.Trim().Split('\n'));
        Assert.StartsWith("probe: ", line);
        Assert.Contains("manifest", line);
        Assert.Contains(expected, line);
        Assert.True(line.Length < 1000, $"the line repeats the manifest: {line.Length} characters");
        Assert.DoesNotContain("   at ", stdout + stderr);
        Assert.False(Directory.Exists(report));
    }

    [Theory]
    [InlineData("bom")]
    [InlineData("crlf")]
    [InlineData("cr-only")]
    [InlineData("bom-crlf")]
    public async Task Csvs_with_a_bom_or_other_line_ends_analyse_to_the_same_findings(string kind)
    {
        var folder = TestData.TempFolder("probe-held-csv");
        var plain = HostileCorpus.Healthy().Write(Path.Combine(folder, "plain"));
        var edited = HostileCorpus.Healthy().Write(Path.Combine(folder, kind));
        var csvs = Directory.GetFiles(Path.Combine(edited, "phases"), "*.csv", SearchOption.AllDirectories);
        Assert.NotEmpty(csvs);
        foreach (var csv in csvs)
        {
            var text = File.ReadAllText(csv);
            text = kind switch
            {
                "bom" => "\uFEFF" + text,
                "crlf" => text.Replace("\n", "\r\n", StringComparison.Ordinal),
                "cr-only" => text.Replace('\n', '\r'),
                _ => "\uFEFF" + text.Replace("\n", "\r\n", StringComparison.Ordinal),
            };
            File.WriteAllText(csv, text, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        }

        BundleEdit.Rehash(edited);

        var expected = await InProcessProbe.RunAsync("analyze", plain, "-o", Path.Combine(folder, "plain-report"));
        var (exit, _, stderr) = await InProcessProbe.RunAsync("analyze", edited, "-o", Path.Combine(folder, kind + "-report"));

        Assert.True(expected.Exit == 0, expected.Err);
        Assert.True(exit == 0, $"{kind}: exit {exit}\n{stderr}");
        Assert.Equal(Findings(Path.Combine(folder, "plain-report")), Findings(Path.Combine(folder, kind + "-report")));
    }

    [Theory]
    [InlineData("nul", "this is binary data, not text")]
    [InlineData("esc", "this is binary data, not text")]
    [InlineData("empty", "the file is empty")]
    [InlineData("line-of-10-mb", "a line longer than 1024 KiB")]
    public async Task Folded_stacks_that_are_not_text_lines_are_refused_by_the_stack_verbs(string kind, string expected)
    {
        var folder = TestData.TempFolder("probe-held-folded");
        var input = Path.Combine(folder, kind + ".folded");
        File.WriteAllText(input, kind switch
        {
            "nul" => "postgres;a\0b;c 5\n",
            "esc" => "postgres;a\u001b]0;title\u0007;c 5\n",
            "empty" => "",
            _ => "postgres;" + new string('f', 10 << 20) + " 5\n",
        });

        foreach (var verb in new[] { "fold", "flamegraph", "speedscope" })
        {
            var output = Path.Combine(folder, verb + ".out");
            var (exit, stdout, stderr) = await InProcessProbe.RunAsync("stacks", verb, input, "-o", output);

            Assert.True(exit == 2, $"{verb} {kind}: exit {exit}\n{stderr}");
            var line = Assert.Single(stderr.Trim().Split('\n'));
            Assert.Contains(input, line);
            Assert.Contains(expected, line);
            Assert.DoesNotContain('\u001b', stdout + stderr);
            Assert.Equal([input], Directory.GetFiles(folder));
        }
    }

    [Fact]
    public async Task Compare_takes_a_bundle_with_itself_another_engine_and_twelve_bundles()
    {
        var folder = TestData.TempFolder("probe-held-compare");
        var postgres = HostileCorpus.Healthy().Write(Path.Combine(folder, "pg"));
        var sqlserver = new CraftedBundle("sqlserver", "sqlservr", "hashbytes")
            .Phase("load", 2, 40, 25).Sessions("load", 1500).Wait("load", "SOS_SCHEDULER_YIELD", 60)
            .Stack("load", "sqlservr;sqllang!CXStmtQuery::ErsqlExecuteQuery;sqlmin!HashBytes", 150)
            .Write(Path.Combine(folder, "mssql"));
        var twelve = Enumerable.Range(0, 12).Select(i => HostileCorpus.Healthy().Write(Path.Combine(folder, "b" + i))).ToArray();

        foreach (var (name, bundles, count) in new[] { ("itself", new[] { postgres, postgres }, 2), ("engines", [postgres, sqlserver], 2), ("twelve", twelve, 12) })
        {
            var output = Path.Combine(folder, name);
            var (exit, stdout, stderr) = await InProcessProbe.RunAsync(["compare", .. bundles, "-o", output]);

            Assert.True(exit == 0, $"{name}: exit {exit}\n{stderr}");
            Assert.DoesNotContain("   at ", stdout + stderr);
            using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "comparison.json")));
            Assert.Equal(count, json.RootElement.GetProperty("captures").GetArrayLength());
            Assert.True(File.Exists(Path.Combine(output, "compare.html")), name);
        }
    }

    [Fact]
    public async Task Compare_with_a_bundle_that_has_no_phases_is_exit_2_naming_it()
    {
        var folder = TestData.TempFolder("probe-held-compare");
        var healthy = HostileCorpus.Healthy().Write(Path.Combine(folder, "healthy"));
        var empty = new CraftedBundle("postgres", "postgres", "hashbytes").Write(Path.Combine(folder, "empty"));
        var output = Path.Combine(folder, "cmp");

        var (exit, _, stderr) = await InProcessProbe.RunAsync("compare", healthy, empty, "-o", output);

        Assert.True(exit == 2, $"exit {exit}\n{stderr}");
        var line = Assert.Single(stderr.Trim().Split('\n'), l => l.StartsWith("probe: ", StringComparison.Ordinal));
        Assert.Contains("has no phase with executions.csv to compare; leave it out", line);
        Assert.DoesNotContain("   at ", stderr);
        Assert.False(Directory.Exists(output));
    }

    private static string Edit(string kind, string manifest)
    {
        static string Replace(string text, string pattern, string replacement)
        {
            var edited = Regex.Replace(text, pattern, replacement, RegexOptions.None, TimeSpan.FromSeconds(10));
            Assert.NotEqual(text, edited);
            return edited;
        }

        var open = manifest.IndexOf('{', StringComparison.Ordinal) + 1;
        return kind switch
        {
            "nesting" => manifest.Insert(open, "\"deep\": " + new string('[', 10_000) + new string(']', 10_000) + ","),
            "huge-integer" => Replace(manifest, "\"logicalCpus\": \\d+", "\"logicalCpus\": 99999999999999999999999999999999999999"),
            "huge-exponent" => Replace(manifest, "\"logicalCpus\": \\d+", "\"logicalCpus\": 1e99999"),
            "nan" => Replace(manifest, "\"logicalCpus\": \\d+", "\"logicalCpus\": NaN"),
            "block-comment" => "/* a comment */\n" + manifest,
            "line-comment" => manifest.Insert(open, " // a comment\n"),
            "trailing-comma" => manifest.TrimEnd().TrimEnd('}') + ",}",
            "string-of-50-mb" => Replace(manifest, "\"host\": \"", "\"host\": \"" + new string('x', 50_000_000)),
            "schema-version-99" => Replace(manifest, "\"schemaVersion\": \\d+", "\"schemaVersion\": 99"),
            "schema-version-text" => Replace(manifest, "\"schemaVersion\": \\d+", "\"schemaVersion\": \"1\""),
            "schema-version-fraction" => Replace(manifest, "\"schemaVersion\": \\d+", "\"schemaVersion\": 1.5"),
            "schema-version-negative" => Replace(manifest, "\"schemaVersion\": \\d+", "\"schemaVersion\": -1"),
            _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "no such manifest"),
        };
    }

    private static string Findings(string report) => File.ReadAllText(Path.Combine(report, "findings.json"));
}
