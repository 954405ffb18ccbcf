using System.Text.Json;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe compare</c> on two real captures of the embedded PostgreSQL: the same query hashing with pgcrypto's md5
/// and sha512, one session each. The change of CPU per execution is OpenSSL's.
/// </summary>
public sealed class CompareCommandTests
{
    [Fact]
    public async Task Comparing_md5_with_sha512_captures_names_libcrypto_where_cpu_per_execution_changed()
    {
        var folder = TestData.TempFolder("compare-real");
        var bundles = new List<string>();
        // md5 of a short text per row against sha512 of a 1 KB text per row: each row pays pgcrypto's algorithm lookup
        // in libcrypto either way, and sha512 adds hashing that multiplies libcrypto's CPU per execution several times,
        // a difference no load on the machine can hide.
        foreach (var (algorithm, text) in new[] { ("md5", "'row-' || g::text"), ("sha512", "repeat('row-' || g::text, 120)") })
        {
            var sql = Path.Combine(folder, algorithm + ".sql");
            File.WriteAllText(sql, $"CREATE EXTENSION IF NOT EXISTS pgcrypto; SELECT sum(get_byte(digest({text}, '{algorithm}'), 0)) FROM generate_series(1, 100000) AS g");
            var bundle = Path.Combine(folder, algorithm);
            var (exit, _, err) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(3),
                "capture", "--engine", "postgres", "--sql", sql, "--threads", "1", "--no-baseline", "--duration", "4s", "--no-analyze", "-o", bundle);
            Assert.True(exit == 0, err);
            bundles.Add(bundle);
        }

        var output = Path.Combine(folder, "cmp");
        var (code, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2), "compare", bundles[0], bundles[1], "-o", output);

        Assert.True(code == 0, stderr);
        // No --label: the captures differ only in their --sql file, which names the columns.
        Assert.Contains("compared md5 vs sha512 in load", stdout);
        foreach (var file in new[] { "compare.md", "compare.html", "comparison.json", "flamegraph-diff-load-md5-vs-sha512.svg" })
        {
            Assert.True(File.Exists(Path.Combine(output, file)), $"{file} missing; stdout: {stdout}");
        }

        ReportSchemas.AssertValid(ReportSchemas.Comparison, File.ReadAllText(Path.Combine(output, "comparison.json")));
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "comparison.json")));
        var module = json.RootElement.GetProperty("findings").EnumerateArray().Single(f => f.GetProperty("id").GetString() == "compare-module-change");
        Assert.Contains("libcrypto", module.GetProperty("title").GetString());
        Assert.Contains("libcrypto", File.ReadAllText(Path.Combine(output, "compare.md")));
        Assert.Contains("<iframe sandbox=\"allow-scripts\" title=\"flame graph load: md5 → sha512", File.ReadAllText(Path.Combine(output, "compare.html")));
    }

    [Fact]
    public async Task Unreadable_bundles_exit_2_with_one_line()
    {
        var folder = TestData.TempFolder("compare-bad");
        var zip = Path.Combine(folder, "garbage.zip");
        File.WriteAllBytes(zip, [0x50, 0x4b, 0x03, 0x04, 0xde, 0xad, 0xbe, 0xef]);
        var empty = Directory.CreateDirectory(Path.Combine(folder, "empty")).FullName;

        foreach (var bad in new[] { zip, empty, Path.Combine(folder, "missing") })
        {
            var (exit, _, err) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "compare", bad, empty, "-o", Path.Combine(folder, "out"));
            Assert.Equal(2, exit);
            var line = Assert.Single(err.Split('\n', StringSplitOptions.RemoveEmptyEntries), l => !l.Contains(" analysing ", StringComparison.Ordinal) && !l.Contains(" comparing ", StringComparison.Ordinal));
            Assert.StartsWith("probe: ", line);
        }
    }
}
