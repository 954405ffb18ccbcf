using PuppeteerSharp;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>
/// Searching a flame graph inside report.html, as a user does it: the installed Chromium, headless, opens the report,
/// and the test types into the graph's search box inside its sandboxed frame.
/// </summary>
public sealed class FlameGraphSearchTests
{
    [RequiresToolFact("/usr/bin/chromium", "chromium")]
    public async Task Typing_in_a_flame_graphs_search_box_inside_the_report_highlights_the_matches_and_leaves_ctrl_f_to_the_browser()
    {
        // Load: 1,000 samples of the server, 700 of them end in ntoskrnl!MiZeroPage, all 1,000 pass through SOS_MemoryWorkSpace::Alloc.
        var root = ReportBuilderTests.HashbytesScenario().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis }, new Progress<string>(), CancellationToken.None);

        await using var browser = await Puppeteer.LaunchAsync(new LaunchOptions
        {
            ExecutablePath = "/usr/bin/chromium",
            Headless = true,
            UserDataDir = TestData.TempFolder("chromium-profile"),
            Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
            Timeout = 120_000,
        });
        await using var page = await browser.NewPageAsync();
        var dialogs = 0;
        page.Dialog += (_, e) => { dialogs++; _ = e.Dialog.Dismiss(); };
        await page.GoToAsync(new Uri(Path.Combine(output, "report.html")).AbsoluteUri, WaitUntilNavigation.Load);
        var iframe = await page.QuerySelectorAsync("iframe[title='flame graph load']");
        Assert.NotNull(iframe);
        Assert.Equal("allow-scripts", await iframe.EvaluateFunctionAsync<string>("f => f.getAttribute('sandbox')"));
        var frame = await iframe.ContentFrameAsync();
        var box = await frame.WaitForSelectorAsync("#term");

        await box.TypeAsync("mizeropage");
        Assert.Equal("Matched: 70.0%", await Matched(frame));
        Assert.Equal(["MiZeroPage"], await Highlighted(frame));

        await box.PressAsync("Escape");
        Assert.Equal(string.Empty, await frame.EvaluateExpressionAsync<string>("document.getElementById('term').value"));
        Assert.Equal(string.Empty, (await Matched(frame)).Trim());
        Assert.Empty(await Highlighted(frame));

        await box.TypeAsync("Alloc$");
        Assert.Equal("Matched: 100.0%", await Matched(frame));
        Assert.Equal(["SOS_MemoryWorkSpace::Alloc"], await Highlighted(frame));

        // Ctrl+F belongs to the browser's find: the graph does not take it.
        var taken = await frame.EvaluateExpressionAsync<bool>(
            "(() => { var e = new KeyboardEvent('keydown', { key: 'f', ctrlKey: true, bubbles: true, cancelable: true }); document.dispatchEvent(e); return e.defaultPrevented; })()");
        Assert.False(taken, "the flame graph cancels Ctrl+F, so the browser's find does not open");
        Assert.Equal(0, dialogs);
    }

    private static Task<string> Matched(IFrame frame) => frame.EvaluateExpressionAsync<string>("document.getElementById('matched').textContent");

    private static async Task<string[]> Highlighted(IFrame frame) =>
        (await frame.EvaluateExpressionAsync<string[]>(
            "Array.from(document.querySelectorAll('#frames g')).filter(g => g.querySelector('rect').getAttribute('fill') === 'rgb(230,0,230)').map(g => g.querySelector('title').textContent.split('\\n')[0])"))
        .Distinct().Order(StringComparer.Ordinal).ToArray();
}
