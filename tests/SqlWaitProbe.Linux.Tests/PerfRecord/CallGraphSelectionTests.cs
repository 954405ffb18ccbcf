using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Linux.PerfRecord;

namespace SqlWaitProbe.Linux.Tests.PerfRecord;

/// <summary>The dry run's perf line states the call graph a capture will use and why, decided before anything starts.</summary>
public sealed class CallGraphSelectionTests
{
    private static readonly OsCollectorCatalog Linux = OsSelection.Catalog(windows: false, etwProblem: () => "not here");

    [Theory]
    [InlineData(null, 30.0, 499, 1024, "--call-graph dwarf,8192 -F 499 -m 4M --max-size=1024M", "call graph: dwarf (auto: about 255 MB for the 30 s phase, within the 1024 MB cap)")]
    [InlineData("auto", 180.0, 499, 1024, "--call-graph fp -F 499 --max-size=1024M",
        "call graph: fp (auto: DWARF would write about 1529 MB for the 180 s phase, over 80% of the 1024 MB cap; for complete call paths give --call-graph dwarf with a larger --max-perf-mb, shorter phases or a lower --sample-hz)")]
    [InlineData(null, 180.0, 499, 4096, "--call-graph dwarf,8192 -F 499 -m 4M --max-size=4096M", "call graph: dwarf (auto: about 1529 MB for the 180 s phase, within the 4096 MB cap)")]
    [InlineData(null, null, 499, 1024, "--call-graph dwarf,8192 -F 499", "call graph: dwarf (auto: the phase length is not known before it runs (the first phase of --iterations); DWARF, bounded by the 1024 MB cap")]
    [InlineData("fp", 30.0, 499, 1024, "--call-graph fp -F 499", "call graph: fp (--call-graph fp given)")]
    [InlineData("dwarf", null, 997, 1024, "--call-graph dwarf,8192 -F 997", "call graph: dwarf (--call-graph dwarf given)")]
    public void The_dry_run_perf_line_names_the_call_graph_and_its_reason(string? value, double? seconds, int hz, int cap, string arguments, string stated)
    {
        var options = OsSelection.Values(callGraph: value, hz: hz, maxPerf: cap);
        Assert.Null(OsSelection.Validate(options, windows: false));

        var perf = OsSelection.Select(options, "postgres", serverIsLocal: true, processPerSession: true, Linux, seconds, logicalCpus: 2)[^1];

        Assert.True(perf.Runs, perf.Reason);
        Assert.StartsWith("CPU stacks: perf record -a -e cpu-clock " + arguments, perf.Description, StringComparison.Ordinal);
        Assert.Contains("; " + stated, perf.Description, StringComparison.Ordinal);
        Assert.Equal(perf.Description[(perf.Description.IndexOf("; call graph: ", StringComparison.Ordinal) + 2)..],
            $"call graph: {PerfModule.CallGraph(options, seconds, 2).Mode} ({PerfModule.CallGraph(options, seconds, 2).Reason})");
    }

    [Fact]
    public void More_cpus_sampled_can_tip_auto_to_frame_pointers()
    {
        var options = OsSelection.Values();

        Assert.Equal("dwarf", PerfModule.CallGraph(options, 30, 2).Mode);
        Assert.Equal("fp", PerfModule.CallGraph(options, 30, 16).Mode);
        Assert.Contains("about 2039 MB for the 30 s phase", PerfModule.CallGraph(options, 30, 16).Reason, StringComparison.Ordinal);
    }
}
