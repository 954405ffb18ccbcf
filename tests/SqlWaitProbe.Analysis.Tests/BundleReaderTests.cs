using SqlWaitProbe.Modules;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

public sealed class BundleReaderTests
{
    [Theory]
    [InlineData("phases/load/waits.csv", "scope,wait_type,wait_ms\nsession,WRITELOG,12\nsession,WRITELOG,lots\n", "phases/load/waits.csv:3: column 'wait_ms' holds 'lots'")]
    [InlineData("phases/load/sessions.csv", "session,cpu\n1,2\n", "phases/load/sessions.csv:1: the header lacks column 'cpu_ms'")]
    [InlineData("phases/load/cpu/sampling.json", "{ \"sampleHz\": ", "phases/load/cpu/sampling.json:1: not valid JSON")]
    [InlineData("phases/load/xe/page_events.csv", "utc,event,session_id,memory_clerk_name,pages\n2026-01-05T10:00:00Z,page_moved,1,X,1\n", "page_events.csv:2: event 'page_moved'")]
    [InlineData("phases/load/series.csv", "utc,series,value\nyesterday,os.run_queue,1\n", "series.csv:2: column 'utc' holds 'yesterday'")]
    [InlineData("phases/load/cpu/stacks.folded", "sqlservr;a!b 1\nsqlservr;a!b many\n", "stacks.folded:2: the count 'many'")]
    public void Malformed_files_name_file_and_line(string relative, string text, string expected)
    {
        var root = new CraftedBundle().Phase("load", 1, 5, 10).Raw(relative, text).Write();
        using var bundle = CaptureBundle.Open(root);

        var e = Assert.Throws<BadInputException>(() => BundleReader.ReadPhases(bundle, Registered.Analysis.Collectors));

        Assert.Contains(expected, e.OneLine);
    }

    [Fact]
    public void Executions_give_counts_errors_and_nearest_rank_latency_percentiles()
    {
        var rows = string.Join("", Enumerable.Range(1, 100).Select(i => $"1,{i * 1000},{i * 1000 + i},1,{(i % 50 == 0 ? "deadlock" : "")}\n"));
        var root = new CraftedBundle().Phase("load", 1, 1, 1).Raw("phases/load/executions.csv", "session,start_ms,end_ms,rows,error\n" + rows).Write();
        using var bundle = CaptureBundle.Open(root);

        var e = BundleReader.ReadPhases(bundle, Registered.Analysis.Collectors)[0].Executions;

        Assert.Equal((100L, 2L, 5050.0), (e.Count, e.Errors, e.SessionMs));
        Assert.Equal(new LatencyStats(50, 95, 99, 100), e.Latency);
    }

    [Fact]
    public void Xe_page_events_give_running_totals_by_clerk()
    {
        var root = new CraftedBundle().Phase("load", 1, 300, 10)
            .XePages("load", 0, "page_allocated", "A", 8, 2).XePages("load", 1, "page_freed", "A", 8, 1)
            .XePages("load", 1, "page_allocated", "B", 1, 5).XePages("load", 2, "page_freed", "B", 1, 5).Write();
        using var bundle = CaptureBundle.Open(root);

        var xe = BundleReader.ReadPhases(bundle, Registered.Analysis.Collectors)[0].XePages!;

        Assert.Equal((13L, 7L, 6L), (xe.Events, xe.AllocEvents, xe.FreeEvents));
        Assert.Equal([(0L, 16.0), (1L, 13.0), (2L, 8.0)], xe.RunningTotal());
        Assert.Equal([(0L, 16.0), (1L, 8.0)], xe.RunningTotal("A"));
        Assert.Equal("A", xe.ByClerk()[0].Clerk);
    }

    [Fact]
    public void Xe_page_events_outside_the_phase_window_are_left_out()
    {
        // As bundles held them before each phase had its own event files: the load phase's file also has the
        // baseline's events, seconds before the load phase started.
        var root = new CraftedBundle().Phase("baseline", 1, 100, 10).Phase("load", 1, 300, 10)
            .XePages("load", -3, "page_allocated", "A", 8, 4).XePages("load", 1, "page_allocated", "A", 2, 3).Write();
        using var bundle = CaptureBundle.Open(root);

        var xe = BundleReader.ReadPhases(bundle, Registered.Analysis.Collectors)[1].XePages!;

        Assert.Equal((3L, 3L), (xe.Events, xe.AllocEvents));
        Assert.Equal([(1L, 6.0)], xe.RunningTotal());
    }
}
