using System.Diagnostics;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

public sealed class HtmlReportTests
{
    internal static CraftedBundle RichScenario()
    {
        var b = ReportBuilderTests.HashbytesScenario();
        for (var s = 0; s < 4; s++)
        {
            b.Series("load", "server.cpu.user_pct", s, 50 - s * 5).Series("load", "server.cpu.system_pct", s, 30 + s * 5)
             .Series("load", "wait.SOS_SCHEDULER_YIELD", s, 70 + s * 3)
             .XePages("load", s, "page_allocated", "MEMORYCLERK_SOSNODE", 4, count: 3)
             .XePages("load", s, "page_freed", "MEMORYCLERK_SOSNODE", 4, count: 2);
        }

        return b.XePages("baseline", 0, "page_allocated", "MEMORYCLERK_SOSNODE", 1).XePages("baseline", 0, "page_freed", "MEMORYCLERK_SOSNODE", 1);
    }

    [Fact]
    public async Task Html_report_is_self_contained_and_embeds_flame_graphs_and_charts()
    {
        var root = RichScenario().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        var renderer = new FlameGraphRendererTestDouble();

        var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, FlameGraphs = renderer }, new Progress<string>(), CancellationToken.None);

        var html = File.ReadAllText(Path.Combine(output, "report.html"));
        // Namespace names (never fetched) are the only addresses allowed.
        Assert.DoesNotContain("http://", html.Replace("http://www.w3.org/2000/svg", "").Replace("http://www.w3.org/1999/xlink", ""));
        Assert.DoesNotContain("https://", html);
        Assert.DoesNotContain("<link", html);
        Assert.True(html.IndexOf("Findings", StringComparison.Ordinal) < html.IndexOf("Method", StringComparison.Ordinal));
        Assert.Contains("test double: baseline", html);
        Assert.DoesNotContain("srcdoc=\"&lt;?xml", html);
        // Per phase: the server process embedded, every process in a separate file; plus the differential graph.
        Assert.Equal(5, renderer.Calls);
        Assert.True(File.Exists(Path.Combine(output, "flamegraph-baseline-all-processes.svg")));
        Assert.True(File.Exists(Path.Combine(output, "flamegraph-baseline.svg")));
        Assert.True(File.Exists(Path.Combine(output, "flamegraph-load.svg")));
        Assert.True(File.Exists(Path.Combine(output, "flamegraph-diff-baseline-vs-load.svg")));
        foreach (var chart in new[] { "scalability", "ledger", "module-shares", "cpu-load", "waits-load", "xe-pages-load", "xe-rates-load" })
        {
            Assert.True(File.Exists(Path.Combine(output, "charts", chart + ".svg")), chart);
        }

        Assert.Equal("report.md", Path.GetFileName(result.Files[0]));
    }

    [Fact]
    public async Task Without_png_conversion_the_charts_are_svg_only_and_the_report_says_so()
    {
        var root = RichScenario().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

        Assert.Empty(Directory.GetFiles(Path.Combine(output, "charts"), "*.png"));
        Assert.Contains("- charts are SVG only: PNG copies were switched off", File.ReadAllText(Path.Combine(output, "report.md")));
        Assert.Contains("charts are SVG only", File.ReadAllText(Path.Combine(output, "findings.json")));
        Assert.Contains("charts are SVG only", File.ReadAllText(Path.Combine(output, "report.html")));
    }

    [Fact]
    public async Task Charts_are_written_as_png_of_at_least_800_by_500()
    {
        var root = RichScenario().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis }, new Progress<string>(), CancellationToken.None);

        var png = PngImage.Inspect(Path.Combine(output, "charts", "scalability.png"));
        Assert.True(png.Width >= 800 && png.Height >= 500, $"{png.Width}×{png.Height}");
        Assert.True(png.DistinctColours > 20, $"{png.DistinctColours} colours");
        Assert.True(png.NonWhiteShare > 0.02, $"only {png.NonWhiteShare:P1} of pixels are not white");
    }

    [RequiresToolFact("/usr/bin/chromium", "chromium")]
    public async Task Html_report_renders_in_headless_chromium_as_a_non_blank_page()
    {
        var root = RichScenario().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, FlameGraphs = new FlameGraphRendererTestDouble() }, new Progress<string>(), CancellationToken.None);
        var shot = await ScreenshotAsync(new Uri(Path.Combine(output, "report.html")).AbsoluteUri, 1280, 2000);

        var png = PngImage.Inspect(shot);
        Assert.Equal(1280, png.Width);
        Assert.True(png.DistinctColours > 20, $"only {png.DistinctColours} colours: the page looks blank");
        Assert.True(png.NonWhiteShare > 0.02, $"only {png.NonWhiteShare:P1} of pixels are not white");
    }

    [RequiresToolFact("/usr/bin/chromium", "chromium")]
    public async Task A_flame_graph_deeper_than_its_frame_opens_on_its_roots_not_on_empty_space()
    {
        // One sample walked 127 frames deep, as perf does through code built without frame pointers, among shallow ones:
        // the graph is about 2,100 px tall and its frames are all at the bottom.
        var deep = "sqlservr;" + string.Join(";", Enumerable.Repeat("[unknown]![unknown]", 126)) + ";bcryptprimitives!SymCryptSha256";
        var root = ReportBuilderTests.HashbytesScenario()
            .Stack("baseline", deep, 1)
            .Stack("baseline", "sqlservr;sqllang!CStmtQuery::Execute;sqllang!HashBytes;bcryptprimitives!SymCryptSha256", 3000)
            .Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis }, new Progress<string>(), CancellationToken.None);

        var html = File.ReadAllText(Path.Combine(output, "report.html"));
        var frame = System.Text.RegularExpressions.Regex.Match(html, "<iframe[^>]*title=\"flame graph baseline\"[^>]*>").Value;
        Assert.Contains($"height:{Output.HtmlReport.MaxFlameFrameHeight}px", frame);
        var page = Path.Combine(root, "frame.html");
        File.WriteAllText(page, "<!doctype html><html><head><style>body{margin:0;background:#fff}iframe{width:1240px;border:0}</style></head><body>" + frame + "</iframe></body></html>");

        var shot = await ScreenshotAsync(new Uri(page).AbsoluteUri, 1280, Output.HtmlReport.MaxFlameFrameHeight + 40);

        // The bottom rows of the frame hold the roots ("all", the process, main…): wide warm-coloured bars. Opened at
        // the top, the same rows would be the graph's empty background.
        var (width, _, pixels) = PngImage.Decode(shot);
        var bottom = Output.HtmlReport.MaxFlameFrameHeight;
        var rows = Enumerable.Range(bottom - 120, 100).ToArray();
        var coloured = rows.Sum(y => Enumerable.Range(0, 1200).Count(x => IsFlameColour(pixels[y * width + x])));
        Assert.True(coloured > 0.2 * rows.Length * 1200, $"only {coloured} flame-coloured pixels in the frame's bottom rows: the roots are not in view");
    }

    private static bool IsFlameColour(int rgb)
    {
        int r = rgb >> 16, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF;
        return r > 180 && b < 120 && r - b > 100;
    }

    internal static async Task<string> ScreenshotAsync(string url, int width, int height)
    {
        var shot = Path.Combine(TestData.TempFolder("chromium-shot"), "shot.png");
        var profile = TestData.TempFolder("chromium-profile");
        var info = new ProcessStartInfo("/usr/bin/chromium") { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var arg in new[] { "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                     "--hide-scrollbars", "--virtual-time-budget=10000", "--user-data-dir=" + profile, "--screenshot=" + shot, $"--window-size={width},{height}", url })
        {
            info.ArgumentList.Add(arg);
        }

        using var process = Process.Start(info)!;
        var stderr = process.StandardError.ReadToEndAsync();
        await process.StandardOutput.ReadToEndAsync();
        Assert.True(process.WaitForExit(120_000), "chromium did not finish in 2 minutes");
        Assert.True(File.Exists(shot), "no screenshot; chromium said: " + await stderr);
        return shot;
    }
}
