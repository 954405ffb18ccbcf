using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

/// <summary>A real <c>perf record --call-graph dwarf</c> capture of two PostgreSQL sessions hashing with pgcrypto.</summary>
public sealed class PerfDwarfCaptureTests
{
    private const string DwarfCapture = "perf-script/local__pg15-digest-2sessions-dwarf.perf.txt.gz";

    [Fact]
    public void Dwarf_call_paths_into_libcrypto_reach_postgres_functions_and_the_thread_root()
    {
        var reader = new PerfScriptReader();
        var profile = reader.ReadProfile(TestData.Path(DwarfCapture));

        Assert.Equal("nanoseconds", reader.WeightUnit);
        long intoCrypto = 0;
        long viaPostgresMain = 0;
        long unknown = 0;
        foreach (var (process, stack, weight) in profile.Entries)
        {
            Assert.Equal("postgres", process);
            var frames = profile.FramesOf(stack).ToArray();
            // Frames perf could not name. (Inlined glibc frames perf printed without a module are named, module [unknown].)
            if (frames.Any(f => f.Symbol == "[unknown]"))
            {
                unknown += weight;
            }

            var crypto = Array.FindIndex(frames, f => f.Module == "libcrypto.so.3");
            if (crypto < 0)
            {
                continue;
            }

            intoCrypto += weight;
            var callers = frames[..crypto];
            if (callers.Length > 0 && callers[0].Symbol == "_start" && callers.Any(f => f.QualifiedName == "postgres!PostgresMain")
                && callers.Any(f => f.QualifiedName == "pgcrypto.so!pg_digest"))
            {
                viaPostgresMain += weight;
            }
        }

        // The frame-pointer walk stopped in libcrypto (36% [unknown] inclusive); DWARF unwinding reaches _start.
        Assert.True(intoCrypto > profile.TotalWeight / 3, $"libcrypto on {intoCrypto} of {profile.TotalWeight} ns");
        Assert.True(viaPostgresMain > intoCrypto * 0.95, $"{viaPostgresMain} of {intoCrypto} ns of libcrypto stacks reach _start through PostgresMain and pg_digest");
        Assert.True(unknown < profile.TotalWeight * 0.05, $"[unknown] on {unknown} of {profile.TotalWeight} ns");
    }

    [Fact]
    public void The_dwarf_capture_folds_exactly_as_flamegraphs_stackcollapse_perf()
    {
        // Reference made with FlameGraph's stackcollapse-perf.pl, default options (inferno-collapse-perf reproduces
        // it and could not be installed here); the inlined glibc frames fold by name, as both tools do.
        var expected = FoldedReference.Read(TestData.Path("folded/expected-from-perf/flamegraph-pl/local__pg15-digest-2sessions-dwarf.perf.folded"));
        var actual = new PerfScriptReader().Fold(TestData.Path(DwarfCapture));
        Assert.Contains(expected.Keys, k => k.Contains(";__libc_start_main_impl;", StringComparison.Ordinal));
        Assert.Equal(string.Empty, FoldedReference.Differences(expected, actual));
    }

    [Theory]
    [InlineData("FP", "fp")]
    [InlineData("dwarf", "dwarf,8192")]
    [InlineData("lbr", "lbr")]
    public void Call_graph_modes_give_the_perf_record_arguments(string? value, string expected)
    {
        var mode = PerfCallGraph.Resolve(value);
        Assert.NotNull(mode);
        Assert.Equal(["--call-graph", expected], PerfCallGraph.RecordArguments(mode));
        var args = PerfRecordCollector.RecordArguments(new PerfRecordOptions { Scope = new RunScope("capture", "r"), CallGraph = mode, LogicalCpus = 2, ServerProcess = "postgres" }, "/x.data");
        // DWARF's 8 KiB stack copies get a ring buffer of about a second per CPU.
        string[] buffer = mode == "dwarf" ? ["-m", "4M"] : [];
        Assert.Equal(["record", "-a", "-e", "cpu-clock", "--call-graph", expected, "-F", "499", .. buffer, "-o", "/x.data", "--max-size=1024M", .. PerfVersion.SidebandArguments()], args);
    }

    [Theory]
    [InlineData(2, 4)]
    [InlineData(64, 4)]
    [InlineData(128, 2)]
    [InlineData(1024, 1)]
    public void Dwarf_ring_buffers_stay_within_256_MB_in_all(int cpus, int megabytesPerCpu)
    {
        Assert.Equal(megabytesPerCpu, PerfRecordCollector.DwarfBufferMegabytes(cpus));
    }

    [Fact]
    public void An_unknown_mode_is_refused_and_lbr_needs_branch_records()
    {
        Assert.Null(PerfCallGraph.Resolve("frames"));
        Assert.Equal("auto", PerfCallGraph.Resolve(null));
        Assert.Equal("auto", PerfCallGraph.Resolve("Auto"));
        var sys = TestData.TempFolder("sys");
        Assert.Contains("--call-graph dwarf", PerfCallGraph.Problem("lbr", sys));
        Directory.CreateDirectory(Path.Combine(sys, "bus/event_source/devices/cpu/caps"));
        File.WriteAllText(Path.Combine(sys, "bus/event_source/devices/cpu/caps/branches"), "32\n");
        Assert.Null(PerfCallGraph.Problem("lbr", sys));
        Assert.Null(PerfCallGraph.Problem("dwarf", sys));
    }

    [Theory]
    [InlineData("cpu-clock", "nanoseconds")]
    [InlineData("cpu-clock:ppp", "nanoseconds")]
    [InlineData("task-clock", "nanoseconds")]
    [InlineData("cycles", "none")]
    [InlineData(null, "none")]
    public void Weight_units_follow_the_event(string? eventName, string unit) => Assert.Equal(unit, PerfWeightUnit.Of(eventName));
}
