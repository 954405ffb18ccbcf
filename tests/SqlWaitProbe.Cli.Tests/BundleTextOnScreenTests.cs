using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A bundle's own text (workload, configuration, status reason) reaches the terminal without its escape sequences:
/// OSC 52 would write the user's clipboard, OSC 0 set the window title and CSI 2J clear the screen. <c>compare</c>
/// printed them raw in its labels, and report.md and compare.md held them as they were.
/// </summary>
public sealed class BundleTextOnScreenTests
{
    private const string Clipboard = "\u001b]52;c;ZWNobyBwd25lZA==\u0007";
    private const string Title = "\u001b]0;pwned\u0007";
    private const string Clear = "\u001b[2J";

    [Fact]
    public async Task Compare_and_analyze_print_and_write_a_bundles_escape_sequences_as_text()
    {
        var folder = TestData.TempFolder("probe-escapes");
        var a = Bundle("md5" + Clipboard, "8MB" + Title).Write(Path.Combine(folder, "a"));
        var b = Bundle("sha" + Clear, "64MB" + Clear).Status("interrupted", "ctrl-c" + Title).Write(Path.Combine(folder, "b"));

        var compare = await InProcessProbe.RunAsync("compare", a, b, "-o", Path.Combine(folder, "cmp"));
        var analyze = await InProcessProbe.RunAsync("analyze", b, "-o", Path.Combine(folder, "report"));

        Assert.True(compare.Exit == 0, compare.Err);
        Assert.True(analyze.Exit == 0, analyze.Err);

        // The labels come from what differs (the workloads), the note from the status reason: printed, as text.
        Assert.Contains("md5?]52;c;ZWNobyBwd25lZA==?", compare.Out);
        Assert.Contains("sha?[2J", compare.Out);
        Assert.Contains("ctrl-c?]0;pwned?", analyze.Out);
        // report.md and compare.md are read with cat and less too: the same text, as text (they carried the raw bytes).
        var markdown = new[] { Path.Combine(folder, "cmp", "compare.md"), Path.Combine(folder, "report", "report.md") }.Select(File.ReadAllText).ToList();
        Assert.Contains("md5?]52;c;ZWNobyBwd25lZA==?", markdown[0]);
        Assert.Contains("64MB?[2J", markdown[0]);
        Assert.Contains("sha?[2J", markdown[1]);
        string[] printed = [compare.Out, compare.Err, analyze.Out, analyze.Err, .. markdown];
        foreach (var text in printed)
        {
            Assert.DoesNotContain('\u001b', text);
            Assert.DoesNotContain('\u0007', text);
            Assert.DoesNotContain('\u009b', text);
        }
    }

    private static CraftedBundle Bundle(string workload, string workMem)
    {
        var bundle = new CraftedBundle("postgres", "postgres", workload)
            .Phase("load", 2, 20, 10).Sessions("load", 300).Wait("load", "LWLock:BufferContent", 40)
            .Stack("load", "postgres;postgres!ExecScan;postgres!pg_sha256", 100);
        bundle.Configuration["postgres.work_mem"] = workMem;
        return bundle;
    }
}
