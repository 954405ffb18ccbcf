using SqlWaitProbe.Linux.PerfRecord;

namespace SqlWaitProbe.Linux.Tests.PerfRecord;

/// <summary><c>--call-graph auto</c>: DWARF when its estimated data for a phase fits within 80% of --max-perf-mb, else frame pointers.</summary>
public sealed class PerfCallGraphChoiceTests
{
    [Fact]
    public void The_bytes_per_sample_come_from_the_measured_60_s_recording()
    {
        // 534.4 MB (10^6 bytes) for 60 s at 499 Hz on 2 saturated CPUs.
        Assert.InRange(534_400_000.0 / (60 * 2 * 499), PerfCallGraph.DwarfBytesPerSample - 1, PerfCallGraph.DwarfBytesPerSample);
        Assert.Equal(534_400_000 / 1048576.0, PerfCallGraph.DwarfMegabytes(60, 2, 499), 0);
    }

    [Fact]
    public void The_default_capture_walks_stacks_with_dwarf_and_says_how_much_data_that_is()
    {
        var choice = PerfCallGraph.Choose(null, phaseSeconds: 30, logicalCpus: 2, sampleHz: 499, maxPerfMegabytes: 1024);

        Assert.Equal(new CallGraphChoice("dwarf", "auto: about 255 MB for the 30 s phase, within the 1024 MB cap"), choice);
        Assert.Equal(choice, PerfCallGraph.Choose("auto", 30, 2, 499, 1024));
        Assert.Equal(choice, PerfCallGraph.Choose(" AUTO ", 30, 2, 499, 1024));
    }

    [Theory]
    // 2 CPUs at 499 Hz: about 8.49 MB per second, so 80% of 1024 MB (819.2 MB) holds 96 s but not 97 s.
    [InlineData(96, 2, 499, 1024, "dwarf")]
    [InlineData(97, 2, 499, 1024, "fp")]
    // 30 s on 2 CPUs is about 254.8 MB: 80% of 319 MB holds it, 80% of 318 MB does not.
    [InlineData(30, 2, 499, 319, "dwarf")]
    [InlineData(30, 2, 499, 318, "fp")]
    // More CPUs or a higher rate grow the estimate in proportion: 30 s at 499 Hz fits on 6 CPUs, not on 7.
    [InlineData(30, 6, 499, 1024, "dwarf")]
    [InlineData(30, 7, 499, 1024, "fp")]
    [InlineData(30, 2, 997, 1024, "dwarf")]
    [InlineData(30, 2, 4000, 1024, "fp")]
    public void Auto_chooses_dwarf_only_within_80_percent_of_the_cap(double seconds, int cpus, int hz, int cap, string mode)
    {
        var choice = PerfCallGraph.Choose("auto", seconds, cpus, hz, cap)!;

        Assert.Equal(mode, choice.Mode);
        Assert.StartsWith("auto: ", choice.Reason, StringComparison.Ordinal);
        var megabytes = PerfCallGraph.DwarfMegabytes(seconds, cpus, hz).ToString("0", System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains($"about {megabytes} MB for the {seconds} s phase", choice.Reason, StringComparison.Ordinal);
        if (mode == "fp")
        {
            Assert.Contains($"over 80% of the {cap} MB cap", choice.Reason, StringComparison.Ordinal);
            Assert.Contains("give --call-graph dwarf with a larger --max-perf-mb", choice.Reason, StringComparison.Ordinal);
        }
        else
        {
            Assert.EndsWith($"within the {cap} MB cap", choice.Reason, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void An_unknown_phase_length_is_dwarf_bounded_by_the_cap_with_the_reason()
    {
        var choice = PerfCallGraph.Choose(null, phaseSeconds: null, logicalCpus: 2, sampleHz: 499, maxPerfMegabytes: 1024)!;

        // 1024 MB ÷ (8,925 bytes × 2 CPUs × 499 Hz per second) = 120 s of a fully busy machine before perf stops.
        Assert.Equal("dwarf", choice.Mode);
        Assert.Equal("auto: the phase length is not known before it runs (the first phase of --iterations); DWARF, bounded by the 1024 MB cap: perf stops there, after 120 s at the least, and the phase is then marked partial; each later phase is decided from the one before it", choice.Reason);
    }

    [Fact]
    public void A_phase_of_iterations_is_bounded_by_its_estimate_from_the_phase_before()
    {
        var fits = PerfCallGraph.Choose(null, phaseSeconds: 16, logicalCpus: 2, sampleHz: 499, maxPerfMegabytes: 1024, estimated: true)!;
        var over = PerfCallGraph.Choose(null, phaseSeconds: 600, logicalCpus: 2, sampleHz: 499, maxPerfMegabytes: 1024, estimated: true)!;

        Assert.Equal("dwarf", fits.Mode);
        Assert.Equal("auto: about 136 MB for the phase's expected 16 s (the phase before it, scaled by sessions per CPU), within the 1024 MB cap", fits.Reason);
        Assert.Equal("fp", over.Mode);
        Assert.StartsWith("auto: DWARF would write about 5097 MB for the phase's expected 600 s (the phase before it, scaled by sessions per CPU), over 80% of the 1024 MB cap", over.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("fp", 30.0, "fp")]
    [InlineData("FP", null, "fp")]
    [InlineData("dwarf", 3600.0, "dwarf")]
    [InlineData("dwarf", null, "dwarf")]
    [InlineData("lbr", 30.0, "lbr")]
    public void An_explicit_mode_is_kept_whatever_the_estimate(string value, double? seconds, string mode) =>
        Assert.Equal(new CallGraphChoice(mode, $"--call-graph {mode} given"), PerfCallGraph.Choose(value, seconds, 64, 4000, 1));

    [Fact]
    public void An_unknown_mode_is_no_choice() => Assert.Null(PerfCallGraph.Choose("frames", 30, 2, 499, 1024));
}
