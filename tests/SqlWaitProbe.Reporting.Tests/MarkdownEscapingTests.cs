using Markdig;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Reporting.Comparison;
using SqlWaitProbe.Reporting.Output;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>Text from a bundle stays text in report.md and compare.md when a Markdown renderer shows them.</summary>
public sealed class MarkdownEscapingTests
{
    private const string Script = "<script>alert(1)</script>";
    private const string Image = "<img src=x onerror=alert(2)>";
    private const string Link = "[click](javascript:alert(3))";

    private static readonly MarkdownPipeline Gfm = new MarkdownPipelineBuilder().UseAdvancedExtensions().Build();

    /// <summary>A bundle whose host, wait types, module and configuration carry HTML and a script link.</summary>
    private static CraftedBundle Hostile(string mode)
    {
        var b = new CraftedBundle(host: Script)
            .Phase("load", 1, 100, 10).Sessions("load", 200)
            .Wait("load", Image, 300).Wait("load", Link, 200).Wait("load", "`x` <b>bold</b>`", 100)
            .Stack("load", $"sqlservr;{Image}!f;sqllang!Exec", 60).Stack("load", "sqlservr;sqllang!Exec", 40);
        b.Configuration["memory model"] = mode + Script;
        return b;
    }

    private static void AssertTextOnly(string markdown)
    {
        var html = Markdown.ToHtml(markdown, Gfm);

        Assert.DoesNotContain("<script", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("<img", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("<b>", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("href=\"javascript", html, StringComparison.OrdinalIgnoreCase);
        // Shown, not dropped: the reader still sees what the bundle holds.
        Assert.Contains("&lt;script&gt;alert(1)&lt;/script&gt;", html, StringComparison.Ordinal);
        Assert.Contains("&lt;img src=x onerror=alert(2)&gt;", html, StringComparison.Ordinal);
        Assert.Contains("[click](javascript:alert(3))", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Report_md_shows_html_and_links_from_the_bundle_as_text()
    {
        var root = Hostile("A").Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false, FlameGraphs = null }, new Progress<string>(), CancellationToken.None);

        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.Contains(@"\<script\>alert(1)\</script\>", md, StringComparison.Ordinal);
        AssertTextOnly(md);
    }

    [Fact]
    public async Task Compare_md_shows_html_and_links_from_the_bundles_as_text()
    {
        var output = Path.Combine(TestData.TempFolder("hostile-compare"), "out");

        await CompareBuilder.BuildAsync([Hostile("A").Write(), Hostile("B").Write()], null, null, output, new ReportOptions { Modules = Registered.Analysis, Png = false, FlameGraphs = null }, new Progress<string>(), CancellationToken.None);

        AssertTextOnly(File.ReadAllText(Path.Combine(output, "compare.md")));
    }

    [Theory]
    [InlineData("plain `code` text", "plain `code` text")]
    [InlineData("a `b|c` cell", "a `b|c` cell")]
    [InlineData("one ` tick", "one \\` tick")]
    [InlineData("[x]: javascript:alert(1)", "\\[x]: javascript:alert(1)")]
    [InlineData(@"C:\Users\probe", @"C:\Users\probe")]
    [InlineData(@"\<b>", @"\\\<b\>")]
    [InlineData("line\nbreak", "line break")]
    public void Inline_text_escapes_only_what_could_become_markup(string text, string expected)
    {
        Assert.Equal(expected, MarkdownReport.Inline(text));
    }
}
