using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Modules;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>
/// A <c>probe watch</c> dump's report says which trigger fired, when (UTC), the value against the threshold, and how much
/// of the time before and after the trigger the dump keeps; a capture that no watch made has no such section.
/// </summary>
public sealed class WatchTriggerReportTests
{
    [Fact]
    public async Task A_dump_s_report_names_the_trigger_its_UTC_time_the_value_against_the_threshold_and_the_kept_span()
    {
        // A 40 s window; the trigger fired 30 s in: 30 s before it, 10 s after.
        var root = new CraftedBundle("postgres", "postgres", "attach").AttachWindow("attach", 40)
            .Trigger(new BundleTrigger { Trigger = "wait:Lock>30%", Kind = "wait", Threshold = 30, Value = 47.2, Unit = "%", KeepSeconds = 25, AfterSeconds = 10 }, 30)
            .Write();
        var report = await ReportOf(root);

        Assert.Contains("## Watch trigger", report);
        Assert.Contains("`wait:Lock>30%` fired at 2026-01-05T10:00:30Z (UTC): 47.2% against its threshold of 30%", report);
        Assert.Contains("keeps 30 s before it (--keep 25 s) and 10 s after it (--after 10 s): 2026-01-05T10:00:00Z – 2026-01-05T10:00:40Z (UTC)", report);
    }

    [Fact]
    public async Task A_latency_trigger_reads_in_ms_a_manual_dump_says_it_was_asked_for_and_a_plain_capture_has_no_trigger_section()
    {
        var latency = await ReportOf(new CraftedBundle("postgres", "postgres", "attach").AttachWindow("attach", 20)
            .Trigger(new BundleTrigger { Trigger = "latency>5s", Kind = "latency", Threshold = 5000, Value = 7250, Unit = "ms", KeepSeconds = 15, AfterSeconds = 5 }, 15).Write());
        Assert.Contains("`latency>5s` fired at 2026-01-05T10:00:15Z (UTC): 7250 ms against its threshold of 5000 ms", latency);

        var manual = await ReportOf(new CraftedBundle("postgres", "postgres", "attach").AttachWindow("attach", 20)
            .Trigger(new BundleTrigger { Trigger = "manual", Kind = "manual", KeepSeconds = 15, AfterSeconds = 5 }, 16).Write());
        Assert.Contains("A dump was asked for from another shell (`probe watch --dump`) at 2026-01-05T10:00:16Z (UTC).", manual);
        Assert.Contains("keeps 16 s before it (--keep 15 s) and 4 s after it", manual);

        var plain = await ReportOf(new CraftedBundle("postgres", "postgres", "attach").AttachWindow("attach", 20).Write());
        Assert.DoesNotContain("Watch trigger", plain);
    }

    private static async Task<string> ReportOf(string root)
    {
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false, FlameGraphs = null }, new Progress<string>(), CancellationToken.None);
        return File.ReadAllText(Path.Combine(output, "report.md"));
    }
}
