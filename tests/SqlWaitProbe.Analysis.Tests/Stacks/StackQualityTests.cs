using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Tests.Stacks;

public sealed class StackQualityTests
{
    private static Frame U(string module, string symbol) => new(module, symbol, FrameKind.User);

    [Theory]
    [InlineData(0.004, "99.6%")]
    [InlineData(0.0004, "99.96%")]
    [InlineData(0.4, "60%")]
    [InlineData(0, "100%")]
    public void The_share_that_reaches_a_first_function_never_reads_100_percent_beside_one_that_stops_short(double incomplete, string expected)
    {
        Assert.Equal(expected, StackQuality.Reach(incomplete));
    }

    [Fact]
    public void A_frame_pointer_walk_that_stops_in_libcrypto_is_reported_with_its_remedy()
    {
        var profile = new StackProfile();
        // 60 ns reach _start; 40 ns stop inside libcrypto, which has no frame pointers.
        profile.Add("postgres", [U("postgres", "_start"), U("postgres", "PostgresMain"), U("pgcrypto.so", "pg_digest"), U("libcrypto.so.3", "SHA256_Update")], 60);
        profile.Add("postgres", [U("[unknown]", "[unknown]"), U("libcrypto.so.3", "[libcrypto.so.3]")], 40);

        var quality = StackQuality.Measure(profile);

        Assert.Equal(0.4, quality.IncompleteShare, 3);
        var crypto = quality.Modules.Single(m => m.Module == "libcrypto.so.3");
        Assert.Equal(100, crypto.FrameWeight);
        Assert.Equal(0.4, crypto.UnsymbolisedShare, 3);
        var lines = StackQuality.Describe("load", "postgres", quality, 3, "perf", phaseSamples: 1000);
        Assert.Contains(lines, l => l.Contains("60% of CPU samples (by weight) reach a thread's first function; 40% stop short", StringComparison.Ordinal) && l.Contains("3 samples lost", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("libcrypto.so.3 40%", StringComparison.Ordinal));
        var remedy = Assert.Single(lines, l => l.Contains("remedy", StringComparison.Ordinal));
        Assert.Contains("--call-graph dwarf", remedy);
        Assert.Contains("-dbgsym", remedy);
        Assert.Contains("DEBUGINFOD_URLS", remedy);
        Assert.Contains("perf map", remedy);

        // Already recorded with dwarf: the remedy says why DWARF stacks end early instead of asking for dwarf.
        var dwarf = Assert.Single(StackQuality.Describe("load", "postgres", quality, 0, "perf", "dwarf"), l => l.Contains("remedy", StringComparison.Ordinal));
        Assert.Contains("8 KiB", dwarf);
        Assert.DoesNotContain("record with --call-graph dwarf", dwarf);
    }

    [Fact]
    public void Etw_stacks_whose_symbols_did_not_load_name_the_modules_and_the_symbol_path()
    {
        var profile = new StackProfile();
        profile.Add("sqlservr", [U("ntdll.dll", "RtlUserThreadStart"), U("kernel32.dll", "BaseThreadInitThunk"), U("sqldk.dll", "[unknown]"), U("sqlmin.dll", "[unknown]")], 10);

        var lines = StackQuality.Describe("load", "sqlservr", StackQuality.Measure(profile), 0, "etw");

        Assert.Contains(lines, l => l.Contains("100% of CPU samples", StringComparison.Ordinal));
        var remedy = Assert.Single(lines, l => l.Contains("remedy", StringComparison.Ordinal));
        Assert.Contains("symbols did not load for sqldk.dll, sqlmin.dll", remedy);
        Assert.Contains("--symbols", remedy);
        Assert.DoesNotContain("dwarf", remedy);
    }

    [Fact]
    public void Complete_symbolised_stacks_need_no_remedy_and_unnamed_frames_keep_their_module()
    {
        var profile = new StackProfile();
        profile.Add("postgres", [U("postgres", "_start"), U("libcrypto.so.3", "SHA256_Update")], 5);
        Assert.DoesNotContain(StackQuality.Describe("baseline", "postgres", StackQuality.Measure(profile), 0, "perf"), l => l.Contains("remedy", StringComparison.Ordinal));
        Assert.Equal("libcrypto.so.3!?", U("libcrypto.so.3", "[libcrypto.so.3]").DisplayName);
        Assert.Equal("libcrypto.so.3!SHA256_Update", U("libcrypto.so.3", "SHA256_Update").DisplayName);
    }

    [Fact]
    public void Lost_samples_over_one_percent_of_the_phase_get_a_remedy()
    {
        var profile = new StackProfile();
        profile.Add("postgres", [U("postgres", "_start"), U("libcrypto.so.3", "SHA256_Update")], 5);
        var quality = StackQuality.Measure(profile);

        // 5 of 1,005 samples lost (0.5 %): counted, no remedy. 50 of 1,050 (4.8 %): perf could not keep up.
        var few = StackQuality.Describe("load", "postgres", quality, 5, "perf", "dwarf", phaseSamples: 1000);
        Assert.Contains(few, l => l.Contains("5 samples lost (perf)", StringComparison.Ordinal));
        Assert.DoesNotContain(few, l => l.Contains("remedy", StringComparison.Ordinal));

        var many = Assert.Single(StackQuality.Describe("load", "postgres", quality, 50, "perf", "dwarf", phaseSamples: 1000), l => l.Contains("remedy", StringComparison.Ordinal));
        Assert.Contains("50 samples lost (4.8% of the phase's samples)", many);
        Assert.Contains("--sample-hz", many);
    }
}
