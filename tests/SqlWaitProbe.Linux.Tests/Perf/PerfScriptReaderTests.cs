using System.IO.Compression;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

public sealed class PerfScriptReaderTests
{
    [Fact]
    public void Samples_carry_process_thread_cpu_time_period_and_typed_frames()
    {
        var frames = new FrameTable();
        var stacks = new StackTable();
        var samples = new PerfScriptReader().ReadSamples(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz"), frames, stacks).ToList();
        var first = samples[0];
        Assert.Equal("postgres", first.Process);
        Assert.Equal(9690, first.Tid);
        Assert.Equal(0, first.Cpu);
        Assert.Equal(782.390732, first.TimestampSeconds, 6);
        Assert.Equal(2004008, first.Weight);
        var leaf = frames[stacks.LeafFrameOf(first.StackId)];
        Assert.Equal(new Frame("libcrypto.so.3", "CRYPTO_THREAD_read_lock", FrameKind.User), leaf);
        Assert.Contains(Enumerable.Range(0, frames.Count).Select(i => frames[i]), f => f.Kind == FrameKind.Kernel && f.Module == "[kernel.kallsyms]");
    }

    [Fact]
    public void Comm_with_spaces_and_pid_tid_are_split()
    {
        var samples = new PerfScriptReader().ReadSamples(TestData.Path("perf-script/flamegraph__perf-java-faults-01.txt"), new FrameTable(), new StackTable()).ToList();
        Assert.Contains(samples, s => s.Process == "perf");
        var pidFile = new PerfScriptReader().ReadSamples(TestData.Path("perf-script/speedscope__simple-with-pid.linux-perf.txt"), new FrameTable(), new StackTable()).First();
        Assert.True(pidFile.Pid > 0 && pidFile.Tid > 0);
    }

    [Fact]
    public void Jit_map_frames_are_jit()
    {
        var frames = new FrameTable();
        _ = new PerfScriptReader().ReadSamples(TestData.Path("perf-script/flamegraph__perf-java-stacks-02.txt"), frames, new StackTable()).ToList();
        Assert.Contains(Enumerable.Range(0, frames.Count).Select(i => frames[i]), f => f.Kind == FrameKind.Jit && f.Module.StartsWith("perf-", StringComparison.Ordinal));
    }

    [Fact]
    public void Only_the_first_event_type_is_read()
    {
        var path = Path.Combine(TestData.TempFolder(), "two-events.txt");
        File.WriteAllText(path, "a 1 1.0: 5 cycles:\n\t1 f (/bin/a)\n\na 1 2.0: 7 instructions:\n\t1 g (/bin/a)\n\n");
        var folded = new PerfScriptReader().Fold(path);
        Assert.Equal(new Dictionary<string, long> { ["a;f"] = 5 }, folded);
    }

    [Fact]
    public void Inlined_frames_split_root_first_and_annotated()
    {
        var path = Path.Combine(TestData.TempFolder(), "inline.txt");
        File.WriteAllText(path, "java 7 1.0: 3 cycles:\n\t7f1 Lcom/A;::outer->Lcom/B;::inner (/tmp/perf-7.map)\n\t7f0 start_thread (/lib/libc.so.6)\n\n");
        var folded = new PerfScriptReader(new PerfFoldOptions(AnnotateJit: true)).Fold(path);
        Assert.Equal(new Dictionary<string, long> { ["java;start_thread;com/A:::outer_[j];com/B:::inner_[i]"] = 3 }, folded);

        var frames = new FrameTable();
        var stacks = new StackTable();
        var sample = Assert.Single(new PerfScriptReader().ReadSamples(path, frames, stacks));
        var kinds = stacks.FramesRootFirst(sample.StackId).Select(id => frames[id]).ToArray();
        Assert.Equal([FrameKind.User, FrameKind.Jit, FrameKind.Inlined], kinds.Select(f => f.Kind));
        Assert.Equal("perf-7.map", kinds[1].Module);
    }

    [Fact]
    public void Versioned_vmlinux_and_ko_frames_are_kernel()
    {
        var frames = new FrameTable();
        _ = new PerfScriptReader().ReadSamples(TestData.Path("perf-script/inferno__versioned-vmlinux.txt"), frames, new StackTable()).ToList();
        var all = Enumerable.Range(0, frames.Count).Select(i => frames[i]).ToList();
        Assert.All(all.Where(f => f.Module.StartsWith("vmlinux-", StringComparison.Ordinal) || f.Module.EndsWith(".ko", StringComparison.Ordinal)), f => Assert.Equal(FrameKind.Kernel, f.Kind));
        Assert.Equal(16, all.Count(f => f.IsKernel));

        // A BPF program's pseudo-module is neither bracketed, .ko nor vmlinux: inferno leaves it unmarked, and so does probe.
        Assert.Equal(FrameKind.User, all.Single(f => f.Module.StartsWith("bpf_prog_", StringComparison.Ordinal)).Kind);
    }

    [Fact]
    public void Binary_data_is_refused_with_the_line()
    {
        var path = Path.Combine(TestData.TempFolder(), "binary.dat");
        File.WriteAllBytes(path, [.. "perf 1 1.0: cycles:\n"u8, 0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]);
        var e = Assert.Throws<BadInputException>(() => new PerfScriptReader().Fold(path));
        Assert.Equal(path, e.File);
        Assert.Equal(2, e.Line);
        Assert.Contains("binary", e.Message);
    }

    [Fact]
    public void Truncated_gzip_is_refused()
    {
        var bytes = File.ReadAllBytes(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz"));
        var path = Path.Combine(TestData.TempFolder(), "cut.txt.gz");
        File.WriteAllBytes(path, bytes[..(bytes.Length / 2)]);
        var e = Assert.Throws<BadInputException>(() => new PerfScriptReader().Fold(path));
        Assert.Equal(path, e.File);
        Assert.Contains("gzip", e.Message);
    }

    [Fact]
    public void Empty_file_is_refused()
    {
        var e = Assert.Throws<BadInputException>(() => new PerfScriptReader().Fold(TestData.Path("perf-script/inferno__no-events.txt")));
        Assert.Contains("empty", e.Message);
    }

    [Fact]
    public void Text_that_is_not_perf_output_is_refused_at_its_first_line()
    {
        var path = Path.Combine(TestData.TempFolder(), "notes.txt");
        File.WriteAllText(path, "# a comment\nDear diary, today I profiled nothing.\n");
        var e = Assert.Throws<BadInputException>(() => new PerfScriptReader().Fold(path));
        Assert.Equal(2, e.Line);
        Assert.Contains("not perf script output", e.Message);
    }

    [Fact]
    public void Missing_file_is_refused()
    {
        var e = Assert.Throws<BadInputException>(() => new PerfScriptReader().Fold("/nonexistent/perf.txt"));
        Assert.Contains("not found", e.Message);
    }
}
