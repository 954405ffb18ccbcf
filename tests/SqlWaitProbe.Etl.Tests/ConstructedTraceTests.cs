using SqlWaitProbe.Etl.Model;
using SqlWaitProbe.TestSupport.Etl;
using static SqlWaitProbe.TestSupport.Etl.EtlTraceBuilder;

namespace SqlWaitProbe.Etl.Tests;

/// <summary>
/// Traces built record by record to the documented layouts (EtlTraceBuilder), for what the two real traces do not
/// hold or hold only once: 32-bit traces, reused ids, images replaced at one address, stacks whose user part comes
/// after the kernel part, Windows 8 stack keys defined after their use, every header kind.
/// </summary>
public class ConstructedTraceTests
{
    private const ulong Kernel64 = 0xFFFF_F800_0000_0000;
    private const ulong Kernel32 = 0x8200_0000;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_32_bit_trace_reads_with_32_bit_pointers_and_the_upper_half_as_kernel(bool compress)
    {
        var b = new EtlTraceBuilder(pointerSize: 4, compress: compress)
            .Image(0, Ms(0.1), 0, Kernel32, 0x10_0000, @"\SystemRoot\system32\ntkrnlpa.exe", rundown: true)
            .Process(0, Ms(0.2), 500, "app.exe", rundown: true)
            .Thread(0, Ms(0.3), 500, 501, rundown: true)
            .Image(0, Ms(0.4), 500, 0x0040_0000, 0x1_0000, @"\Device\HarddiskVolume1\app\app.exe", rundown: true)
            .Image(0, Ms(0.5), 500, 0x7700_0000, 0x10_0000, @"\SystemRoot\System32\ntdll.dll", rundown: true)
            .Sample(1, Ms(2), 501, Kernel32 + 0x100)
            .Stack(1, Ms(2), Ms(2), 500, 501, Kernel32 + 0x100, Kernel32 + 0x200, 0x0040_1000, 0x7700_2000);
        var (reader, sink) = CollectingSink.Read(b.Build());

        Assert.Equal(4, reader.Info.PointerSize);
        Assert.Equal(0x8000_0000UL, reader.KernelStart);
        var sample = Assert.Single(sink.Samples);
        Assert.Equal("app", sample.Process.Name);
        Assert.Equal(["ntkrnlpa.exe", "ntkrnlpa.exe", "app.exe", "ntdll.dll"], sample.FramesLeafFirst.Select(f => f.Image!.FileName));
        Assert.Equal([true, true, false, false], sample.FramesLeafFirst.Select(f => f.Kernel));
        Assert.Equal(0x1000UL, sample.FramesLeafFirst[2].Rva);
    }

    [Fact]
    public void The_user_part_of_a_stack_that_comes_after_the_kernel_part_completes_every_sample_of_the_thread_in_the_kernel()
    {
        var b = Machine()
            .Sample(0, Ms(10), 1001, Kernel64 + 0x10)
            .Stack(0, Ms(10), Ms(10), 1000, 1001, Kernel64 + 0x10, Kernel64 + 0x20)
            .Sample(0, Ms(11), 1001, Kernel64 + 0x30)
            .Stack(0, Ms(11), Ms(11), 1000, 1001, Kernel64 + 0x30, Kernel64 + 0x20)

            // The thread leaves the kernel on another processor: Windows walks its user stack once, for the last event.
            .Stack(3, Ms(11.5), Ms(11), 1000, 1001, 0x7FF6_0000_1100, 0x7FF6_0000_1200);
        var (_, sink) = CollectingSink.Read(b.Build());

        Assert.Equal(2, sink.Samples.Count);
        foreach (var s in sink.Samples)
        {
            Assert.Equal(4, s.FramesLeafFirst.Count);
            Assert.Equal("ntoskrnl.exe", s.FramesLeafFirst[0].Image!.FileName);
            Assert.Equal("sqlservr.exe", s.FramesLeafFirst[^1].Image!.FileName);
        }
    }

    [Fact]
    public void Stack_keys_defined_after_their_use_complete_the_samples_and_a_reused_key_names_its_new_stack()
    {
        var b = Machine()
            .Sample(0, Ms(10), 1001, Kernel64 + 0x10)
            .KeyReference(0, Ms(10), Ms(10), 1000, 1001, 0xAA, user: false)
            .KeyReference(0, Ms(10), Ms(10), 1000, 1001, 0xBB, user: true)
            .Sample(0, Ms(20), 1001, 0x7FF6_0000_1100)
            .KeyReference(0, Ms(20), Ms(20), 1000, 1001, 0xBB, user: true)

            // Key 0xBB is evicted, then reused for another user stack before the trace ends.
            .KeyDefinition(0, Ms(30), 0xBB, rundown: false, 0x7FF6_0000_1100, 0x7FF6_0000_1200)
            .Sample(0, Ms(40), 1001, 0x7FF6_0000_3300)
            .KeyReference(0, Ms(40), Ms(40), 1000, 1001, 0xBB, user: true)
            .KeyDefinition(0, Ms(50), 0xAA, rundown: true, Kernel64 + 0x10, Kernel64 + 0x20)
            .KeyDefinition(0, Ms(50), 0xBB, rundown: true, 0x7FF6_0000_3300);
        var (reader, sink) = CollectingSink.Read(b.Build());

        var byTime = sink.Samples.OrderBy(s => s.Timestamp).ToArray();
        Assert.Equal(3, byTime.Length);
        Assert.Equal([Kernel64 + 0x10, Kernel64 + 0x20, 0x7FF6_0000_1100, 0x7FF6_0000_1200], byTime[0].FramesLeafFirst.Select(f => f.Address));
        Assert.Equal([0x7FF6_0000_1100UL, 0x7FF6_0000_1200], byTime[1].FramesLeafFirst.Select(f => f.Address));
        Assert.Equal([0x7FF6_0000_3300UL], byTime[2].FramesLeafFirst.Select(f => f.Address));
        Assert.Equal(0, reader.Statistics.SamplesMissingCachedFrames);
    }

    [Fact]
    public void Samples_waiting_for_the_same_cached_stack_are_handed_over_together()
    {
        var b = Machine();
        for (var i = 0; i < 500; i++)
        {
            b.Sample(i % 4, Ms(10 + (i * 0.001)), 1001, 0x7FF6_0000_1100)
             .KeyReference(i % 4, Ms(10 + (i * 0.001)), Ms(10 + (i * 0.001)), 1000, 1001, 0xCC, user: true);
        }

        b.KeyDefinition(0, Ms(900), 0xCC, rundown: true, 0x7FF6_0000_1100, 0x7FF6_0000_1200);
        var (_, sink) = CollectingSink.Read(b.Build());
        Assert.Equal(500, sink.Samples.Sum(s => s.Count));
        Assert.True(sink.Samples.Count <= 2, $"{sink.Samples.Count} groups");
    }

    [Fact]
    public void An_address_names_the_image_mapped_there_at_the_time_even_when_its_stack_is_resolved_later()
    {
        var b = Machine()
            .Image(0, Ms(5), 1000, 0x7FFA_0000_0000, 0x1_0000, @"\Device\HarddiskVolume2\first.dll")
            .Sample(0, Ms(10), 1001, 0x7FFA_0000_0100)
            .KeyReference(0, Ms(10), Ms(10), 1000, 1001, 0x11, user: true)
            .ImageUnload(0, Ms(12), 1000, 0x7FFA_0000_0000, 0x1_0000, @"\Device\HarddiskVolume2\first.dll")
            .Image(0, Ms(13), 1000, 0x7FFA_0000_0000, 0x2_0000, @"\Device\HarddiskVolume2\second.dll")
            .Sample(0, Ms(20), 1001, 0x7FFA_0000_0100)
            .KeyReference(0, Ms(20), Ms(20), 1000, 1001, 0x11, user: true)
            .KeyDefinition(0, Ms(30), 0x11, rundown: true, 0x7FFA_0000_0100);
        var (_, sink) = CollectingSink.Read(b.Build());
        var names = sink.Samples.OrderBy(s => s.Timestamp).Select(s => s.FramesLeafFirst[0].Image!.FileName).ToArray();
        Assert.Equal(["first.dll", "second.dll"], names);
    }

    [Fact]
    public void Reused_process_and_thread_ids_name_the_process_of_the_time()
    {
        var b = Machine()
            .Process(0, Ms(5), 2000, "first.exe")
            .Thread(0, Ms(5), 2000, 2001)
            .Sample(0, Ms(6), 2001, 0x7FF6_0000_1100)
            .ThreadEnd(0, Ms(7), 2000, 2001)
            .ProcessEnd(0, Ms(8), 2000, "first.exe")
            .Process(1, Ms(9), 2000, "second.exe")
            .Thread(1, Ms(9), 2000, 2001)
            .Sample(1, Ms(10), 2001, 0x7FF6_0000_1100);
        var (reader, sink) = CollectingSink.Read(b.Build());
        Assert.Equal(["first", "second"], sink.Samples.OrderBy(s => s.Timestamp).Select(s => s.Process.Name));
        Assert.Equal(2, reader.Processes.Count(p => p.Id == 2000));
    }

    [Fact]
    public void A_thread_named_only_after_its_first_samples_gives_them_its_process()
    {
        // Windows logs the thread rundown when the session starts; a merged trace may hold samples before it.
        var b = new EtlTraceBuilder()
            .Process(0, Ms(0.1), 3000, "early.exe", rundown: true)
            .Sample(2, Ms(1), 3001, Kernel64 + 0x10)
            .Stack(2, Ms(1), Ms(1), 3000, 3001, Kernel64 + 0x10)
            .Stack(2, Ms(1.5), Ms(1), 3000, 3001, 0x7FF6_0000_1100)
            .Thread(0, Ms(4), 3000, 3001, rundown: true);
        var (_, sink) = CollectingSink.Read(b.Build());
        var sample = Assert.Single(sink.Samples);
        Assert.Equal("early", sample.Process.Name);
        Assert.Equal(2, sample.FramesLeafFirst.Count);
    }

    [Fact]
    public void Idle_samples_are_counted_apart_unless_the_processor_ran_a_dpc()
    {
        var b = Machine()
            .Sample(0, Ms(10), 0, Kernel64 + 0x10)
            .Sample(1, Ms(10), 0, Kernel64 + 0x10)
            .Sample(2, Ms(10), 0, Kernel64 + 0x40, dpc: true)
            .Stack(2, Ms(10), Ms(10), 0, 0, Kernel64 + 0x40, Kernel64 + 0x50);
        var (reader, sink) = CollectingSink.Read(b.Build());
        Assert.Equal(3, reader.Statistics.Samples);
        Assert.Equal(2, reader.Statistics.IdleSamples);
        var dpc = Assert.Single(sink.Samples);
        Assert.Equal("Idle", dpc.Process.Name);
        Assert.Equal(2, dpc.FramesLeafFirst.Count);
    }

    [Fact]
    public void Constructed_cswitch_and_readythread_records_decode_to_their_documented_fields()
    {
        // No public trace with context switches was found: these records are built to the CSwitch and ReadyThread MOF
        // classes Microsoft documents (24 and 8 bytes), with a stack walked for the switch.
        var b = Machine()
            .ReadyThread(1, Ms(10), readierTid: 1002, tid: 1001, flag: 1)
            .CSwitch(0, Ms(11), newTid: 1001, oldTid: 1003, oldState: 5, waitReason: 6, waitMode: 1, newWaitTime: 42)
            .Stack(0, Ms(11), Ms(11), 1000, 1001, Kernel64 + 0x10, 0x7FF6_0000_1100);
        var (reader, sink) = CollectingSink.Read(b.Build());

        var ready = Assert.Single(sink.Readies);
        Assert.Equal((1001, 1002, (sbyte)1, (sbyte)2, (sbyte)1), (ready.ThreadId, ready.ReadyingThreadId, ready.AdjustReason, ready.AdjustIncrement, ready.Flag));
        Assert.Equal("sqlservr", ready.Process!.Name);
        Assert.Equal(10.0, ready.RelativeMSec, 6);

        var cs = Assert.Single(sink.Switches);
        Assert.Equal((1001, 1003, (sbyte)9, (sbyte)8), (cs.NewThreadId, cs.OldThreadId, cs.NewThreadPriority, cs.OldThreadPriority));
        Assert.Equal((EtlContextSwitch.StateWaiting, (sbyte)6, (sbyte)1, 42u), (cs.OldThreadState, cs.OldThreadWaitReason, cs.OldThreadWaitMode, cs.NewThreadWaitTime));
        Assert.Equal("sqlservr", cs.NewProcess!.Name);
        Assert.Equal(["ntoskrnl.exe", "sqlservr.exe"], cs.FramesLeafFirst.Select(f => f.Image!.FileName));
        Assert.Equal(1, reader.Statistics.ContextSwitches);
    }

    [Fact]
    public void A_sink_that_wants_no_switch_stack_gets_each_switch_without_waiting_for_its_cached_stack()
    {
        var b = Machine()
            .CSwitch(0, Ms(11), newTid: 1001, oldTid: 1003, oldState: 5)
            .KeyReference(0, Ms(11), Ms(11), 1000, 1001, 0x77, user: false);
        var sink = new NoSwitchStacks();
        var reader = EtlTraceReader.Open(new MemoryStream(b.Build()), "switches.etl");
        reader.Read(sink);
        var cs = Assert.Single(sink.Switches);
        Assert.Empty(cs.FramesLeafFirst);
        Assert.Equal("sqlservr", cs.NewProcess!.Name);
    }

    [Fact]
    public void Events_of_every_processor_come_out_in_time_order()
    {
        var b = Machine();
        for (var i = 0; i < 2000; i++)
        {
            b.ReadyThread(i % 3, Ms(10 + (i * 0.01)), 1002, 1001);
        }

        var (_, sink) = CollectingSink.Read(b.Build());
        Assert.Equal(2000, sink.Readies.Count);
        Assert.Equal(sink.Readies.Select(r => r.Timestamp).Order(), sink.Readies.Select(r => r.Timestamp));
    }

    [Fact]
    public void Process_versions_2_to_5_and_kernel_events_in_full_headers_read_alike()
    {
        var b = Machine()
            .Process(0, Ms(5), 4001, "v2.exe", version: 2)
            .Process(0, Ms(5), 4002, "v3.exe", version: 3, sid: [])
            .Process(0, Ms(5), 4003, "v5.exe", version: 5, sid: [1, 2, 3, 4, 5, 6, 7])
            .Add(0, Ms(6), FullRecord(8, new Guid("3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c"), 1, 4, 0, 0, Ms(6),
                new PayloadWriter(8).Ptr(0).I32(4004).I32(4).U32(1).I32(259).Ptr(0).U32(0).Sid(null).Ansi("full.exe").Unicode("full").Unicode("").Unicode("").ToArray()));
        var (reader, _) = CollectingSink.Read(b.Build());
        Assert.Equal(["v2", "v3", "v5", "full"], reader.Processes.Where(p => p.Id > 4000).OrderBy(p => p.Id).Select(p => p.Name));
    }

    [Fact]
    public void Jit_compiled_methods_are_named_by_the_runtime_events_even_at_the_end_of_the_trace()
    {
        var b = Machine()
            .Sample(0, Ms(10), 1001, 0x0000_7FF9_1000_0050)
            .Stack(0, Ms(10), Ms(10), 1000, 1001, 0x0000_7FF9_1000_0050, 0x7FF6_0000_1100)
            .ClrMethod(0, Ms(50), 1000, moduleId: 0x99, start: 0x0000_7FF9_1000_0000, size: 0x100, ns: "App.Worker", name: "Run", rundown: true)
            .ClrModule(0, Ms(51), 1000, 0x99, @"C:\app\App.Core.dll", rundown: true);
        var (reader, sink) = CollectingSink.Read(b.Build());
        var sample = Assert.Single(sink.Samples);
        Assert.Null(sample.FramesLeafFirst[0].Image);
        var method = reader.FindMethod(sample.Process, sample.FramesLeafFirst[0].Address);
        Assert.Equal(("App.Worker.Run", "App.Core.dll"), (method!.Name, method.ModuleFile));
    }

    [Fact]
    public void An_undefined_stack_key_is_kept_partial_when_the_trace_says_it_lost_events()
    {
        var b = new EtlTraceBuilder { EventsLost = 3 };
        Machine(b)
            .Sample(0, Ms(10), 1001, Kernel64 + 0x10)
            .KeyReference(0, Ms(10), Ms(10), 1000, 1001, 0xAA, user: false)
            .Stack(0, Ms(10.5), Ms(10), 1000, 1001, 0x7FF6_0000_1100);
        var (reader, sink) = CollectingSink.Read(b.Build());
        var sample = Assert.Single(sink.Samples);
        Assert.Equal([0x7FF6_0000_1100UL], sample.FramesLeafFirst.Select(f => f.Address));
        Assert.Equal(1, reader.Statistics.SamplesMissingCachedFrames);
    }

    // A 64-bit machine with a kernel, a server process, one thread and two images.
    private static EtlTraceBuilder Machine(EtlTraceBuilder? builder = null) => (builder ?? new EtlTraceBuilder())
        .Image(0, Ms(0.1), 0, Kernel64, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe", rundown: true)
        .Process(0, Ms(0.2), 1000, "sqlservr.exe", rundown: true)
        .Thread(0, Ms(0.3), 1000, 1001, rundown: true)
        .Thread(0, Ms(0.3), 1000, 1002, rundown: true)
        .Thread(0, Ms(0.3), 1000, 1003, rundown: true)
        .Image(0, Ms(0.4), 1000, 0x7FF6_0000_0000, 0x10_0000, @"\Device\HarddiskVolume2\MSSQL\Binn\sqlservr.exe", rundown: true);

    private sealed class NoSwitchStacks : IEtlSink
    {
        public List<EtlContextSwitch> Switches { get; } = [];

        public void Sample(EtlStackSample sample)
        {
        }

        public void ContextSwitch(EtlContextSwitch contextSwitch) => Switches.Add(contextSwitch);

        public bool WantsSwitchStack(EtlProcess process) => false;
    }
}
