using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>Formats a user brings: their own .xel files, and a speedscope export as the CPU source of a bundle.</summary>
public sealed class FormatsInTests
{
    private static readonly string Xel = TestData.Path("xel/sqltoolsservice__TestXel_0.xel");

    [Fact]
    public async Task Xe_read_writes_every_event_of_a_real_xel_as_csv()
    {
        var events = XelFileReader.Read(Xel).ToList();
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("xe", "read", Xel);
        Assert.True(exit == 0, stderr);
        Assert.StartsWith("utc,event,", stdout, StringComparison.Ordinal);

        // RFC 4180: statement text spans lines inside quotes; a standard CSV reader gives one record per event.
        using var parser = new Microsoft.VisualBasic.FileIO.TextFieldParser(new StringReader(stdout)) { HasFieldsEnclosedInQuotes = true };
        parser.SetDelimiters(",");
        var header = parser.ReadFields()!;
        var rows = new List<string[]>();
        while (!parser.EndOfData)
        {
            rows.Add(parser.ReadFields()!);
        }

        Assert.Equal(events.Count, rows.Count);
        Assert.All(rows, r => Assert.Equal(header.Length, r.Length));
        Assert.All(rows, r => Assert.Matches("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{7}Z$", r[0]));
        Assert.Equal(events.Select(e => e.Name), rows.Select(r => r[1]));
    }

    [Fact]
    public async Task Xe_read_writes_json_with_fields_and_actions()
    {
        var events = XelFileReader.Read(Xel).ToList();
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("xe", "read", Xel, "--format", "json");
        Assert.True(exit == 0, stderr);
        using var json = JsonDocument.Parse(stdout);
        Assert.Equal(events.Count, json.RootElement.GetArrayLength());
        var first = json.RootElement[0];
        Assert.Equal(events[0].Name, first.GetProperty("event").GetString());
        Assert.Equal(events[0].Fields.Count, first.GetProperty("fields").EnumerateObject().Count());
        Assert.Equal(events[0].Actions.Count, first.GetProperty("actions").EnumerateObject().Count());
    }

    [Fact]
    public async Task Xe_read_of_something_else_is_bad_input()
    {
        var (exit, _, stderr) = await InProcessProbe.RunAsync("xe", "read", TestData.Path("perf-script/inferno__go-stacks.txt"));
        Assert.Equal(2, exit);
        Assert.Single(stderr.Trim().Split('\n'));
    }

    [Fact]
    public async Task An_analysed_bundle_has_each_phases_stacks_as_speedscope_and_they_fold_back()
    {
        var root = AnalyzeCommandTests.Scenario().Write();
        var (exit, _, stderr) = await InProcessProbe.RunAsync("analyze", root);
        Assert.True(exit == 0, stderr);
        foreach (var phase in new[] { "baseline", "load" })
        {
            var speedscope = Path.Combine(root, "report", phase + ".speedscope.json");
            Assert.True(File.Exists(speedscope), phase);
            var fromReport = await InProcessProbe.RunAsync("stacks", "fold", speedscope);
            var fromBundle = await InProcessProbe.RunAsync("stacks", "fold", Path.Combine(root, BundlePaths.Stacks(phase)));
            Assert.Equal(fromBundle.Out, fromReport.Out);
        }
    }

    [Fact]
    public async Task A_speedscope_export_is_a_cpu_source_for_analysis()
    {
        var folded = AnalyzeCommandTests.Scenario().Write();
        Assert.Equal(0, (await InProcessProbe.RunAsync("analyze", folded)).Exit);
        var expected = File.ReadAllText(Path.Combine(folded, "report", "report.md"));

        var imported = AnalyzeCommandTests.Scenario().Write();
        foreach (var phase in new[] { "baseline", "load" })
        {
            var stacks = Path.Combine(imported, BundlePaths.Stacks(phase));
            var converted = await InProcessProbe.RunAsync("stacks", "speedscope", stacks, "-o", Path.Combine(imported, BundlePaths.SpeedscopeStacks(phase)));
            Assert.Equal(0, converted.Exit);
            File.Delete(stacks);
        }

        // The bundle now holds speedscope stacks in place of folded ones, as an import would leave it.
        BundleEdit.Rehash(imported);
        var (exit, _, stderr) = await InProcessProbe.RunAsync("analyze", imported);
        Assert.True(exit == 0, stderr);
        var md = File.ReadAllText(Path.Combine(imported, "report", "report.md"));
        Assert.Contains("| ntoskrnl | yes | 60% |", Section(expected, "Modules of sqlservr in load"));
        Assert.Equal(Section(expected, "Modules of sqlservr in load"), Section(md, "Modules of sqlservr in load"));
        Assert.Equal(Section(expected, "Call paths into"), Section(md, "Call paths into"));
    }

    // The lines of the first table after a heading that contains `title`.
    private static string Section(string markdown, string title)
    {
        var lines = markdown.Split('\n');
        var start = Array.FindIndex(lines, l => l.StartsWith('#') && l.Contains(title, StringComparison.Ordinal));
        Assert.True(start >= 0, "no section " + title);
        return string.Join('\n', lines.Skip(start).SkipWhile(l => !l.StartsWith('|')).TakeWhile(l => l.StartsWith('|')));
    }
}
