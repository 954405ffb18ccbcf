using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Windows.Etw;
using static SqlWaitProbe.Windows.Tests.SeedFrames;

namespace SqlWaitProbe.Windows.Tests;

public sealed class EtwStackMapperTests
{
    private static readonly DateTime PhaseStart = new(2026, 3, 14, 9, 0, 0, DateTimeKind.Utc);

    private static readonly EtwFrame[] WorkerRoot =
    [
        Ntdll("RtlUserThreadStart"),
        Kernel32("BaseThreadInitThunk"),
        Sqldk("SchedulerManager::ThreadEntryPoint"),
        Sqllang("CXStmtQuery::ErsqExecuteQuery"),
    ];

    // The trace started half a second before the barrier released the sessions.
    private static RecordedEtwStackSource SeedTrace() =>
        new RecordedEtwStackSource(PhaseStart.AddMilliseconds(-500))
            .Add("sqlservr", 6, 0, [.. WorkerRoot, Sqllang(null), Bcrypt("BCryptHash"), BcryptPrimitives("SymCryptSha256AppendBlocks")])
            .Add("sqlservr", 4, 1500, [.. WorkerRoot, Sqldk("MemoryNode::AllocatePagesInternal"), KernelBase("MapUserPhysicalPages"), Ntoskrnl("NtMapUserPhysicalPages"), Ntoskrnl("MiZeroPhysicalPage")])
            .Add("sqlservr", 3, 2600, [.. WorkerRoot, Sqldk("SOS_MemoryWorkSpace::FreePage"), Ntoskrnl("KiPageFault"), Hal(null)])
            .Add("sqlservr", 2, 2700, [.. WorkerRoot, Sqlmin(null)])
            .Add("sqlservr", 1, 2800, Ntdll("RtlUserThreadStart"), Unknown())
            .Add("Idle", 4, 600, Ntoskrnl("KiIdleLoop"), Ntoskrnl("PoIdle"))
            .Add("System", 1, 3600, Ntoskrnl("KiStartSystemThread"), new EtwFrame(@"\SystemRoot\System32\drivers\storport.sys", "StorPortNotification", 0, false));

    [Fact]
    public void Resolved_frames_are_module_bang_symbol_with_kernel_marks_and_module_fallback()
    {
        var mapping = EtwStackMapper.Map(SeedTrace(), PhaseStart, EtwSymbolMode.Resolved);
        var worker = "sqlservr;ntdll!RtlUserThreadStart;kernel32!BaseThreadInitThunk;sqldk!SchedulerManager::ThreadEntryPoint;sqllang!CXStmtQuery::ErsqExecuteQuery";

        Assert.Equal(
            [
                "Idle;ntoskrnl!KiIdleLoop_[k];ntoskrnl!PoIdle_[k] 4",
                "System;ntoskrnl!KiStartSystemThread_[k];storport!StorPortNotification_[k] 1",
                worker + ";sqllang!sqllang;bcrypt!BCryptHash;bcryptprimitives!SymCryptSha256AppendBlocks 6",
                worker + ";sqldk!MemoryNode::AllocatePagesInternal;kernelbase!MapUserPhysicalPages;ntoskrnl!NtMapUserPhysicalPages_[k];ntoskrnl!MiZeroPhysicalPage_[k] 4",
                worker + ";sqldk!SOS_MemoryWorkSpace::FreePage;ntoskrnl!KiPageFault_[k];hal!hal_[k] 3",
                worker + ";sqlmin!sqlmin 2",
                "sqlservr;ntdll!RtlUserThreadStart;[unknown] 1",
            ],
            Folded(mapping.Profile));
        Assert.Equal(21, mapping.SampleCount);
    }

    [Fact]
    public void Modules_only_frames_fold_runs_of_one_module_into_one_frame()
    {
        var mapping = EtwStackMapper.Map(SeedTrace(), PhaseStart, EtwSymbolMode.ModulesOnly);
        var lines = Folded(mapping.Profile);

        Assert.Contains("sqlservr;ntdll!ntdll;kernel32!kernel32;sqldk!sqldk;sqllang!sqllang;bcrypt!bcrypt;bcryptprimitives!bcryptprimitives 6", lines);
        Assert.Contains("sqlservr;ntdll!ntdll;kernel32!kernel32;sqldk!sqldk;sqllang!sqllang;sqldk!sqldk;kernelbase!kernelbase;ntoskrnl!ntoskrnl_[k] 4", lines);
        Assert.Contains("Idle;ntoskrnl!ntoskrnl_[k] 4", lines);
        Assert.Equal(7, lines.Count);
    }

    [Theory]
    [InlineData(EtwSymbolMode.Resolved)]
    [InlineData(EtwSymbolMode.ModulesOnly)]
    public void Module_shares_of_sqlservr_match_the_recorded_leaves_in_both_modes(EtwSymbolMode mode)
    {
        var mapping = EtwStackMapper.Map(SeedTrace(), PhaseStart, mode);

        var shares = ModuleShares.Compute(mapping.Profile, "sqlservr");

        var exclusive = shares.Where(s => s.ExclusiveWeight > 0).ToDictionary(s => (s.Module, s.Kernel), s => s.ExclusiveShare);
        Assert.Equal(5, exclusive.Count);
        Assert.Equal(6 / 16.0, exclusive[("bcryptprimitives", false)], 6);
        Assert.Equal(4 / 16.0, exclusive[("ntoskrnl", true)], 6);
        Assert.Equal(3 / 16.0, exclusive[("hal", true)], 6);
        Assert.Equal(2 / 16.0, exclusive[("sqlmin", false)], 6);
        Assert.Equal(1 / 16.0, exclusive[(ModuleShares.UnknownModule, false)], 6);

        var inclusive = shares.ToDictionary(s => s.Module, s => s.InclusiveWeight);
        Assert.Equal(16, inclusive["ntdll"]);
        Assert.Equal(15, inclusive["sqldk"]);
        Assert.Equal(15, inclusive["sqllang"]);
        Assert.Equal(7, inclusive["ntoskrnl"]);
        Assert.Equal(4, inclusive["kernelbase"]);
        Assert.Equal(6, inclusive["bcrypt"]);
    }

    [Fact]
    public void Folded_output_reads_back_into_the_same_module_shares()
    {
        var mapping = EtwStackMapper.Map(SeedTrace(), PhaseStart, EtwSymbolMode.Resolved);
        var writer = new StringWriter();
        FoldedStackFormat.Write(mapping.Profile, writer);

        var reread = new StackProfile();
        FoldedStackFormat.ReadInto(new StringReader(writer.ToString()), "stacks.folded", reread, firstFrameIsProcess: true);

        Assert.Equal(
            ModuleShares.Compute(mapping.Profile).Select(s => (s.Process, s.Module, s.Kernel, s.ExclusiveWeight, s.InclusiveWeight)),
            ModuleShares.Compute(reread).Select(s => (s.Process, s.Module, s.Kernel, s.ExclusiveWeight, s.InclusiveWeight)));
    }

    [Fact]
    public void Timeline_counts_leaf_modules_per_second_of_the_phase()
    {
        var mapping = EtwStackMapper.Map(SeedTrace(), PhaseStart, EtwSymbolMode.ModulesOnly);

        Assert.Equal(
            [
                "0,Idle,ntoskrnl,True,4",
                "0,sqlservr,bcryptprimitives,False,6",
                "1,sqlservr,ntoskrnl,True,4",
                "2,sqlservr,[unknown],False,1",
                "2,sqlservr,hal,True,3",
                "2,sqlservr,sqlmin,False,2",
                "3,System,storport,True,1",
            ],
            mapping.Timeline.Select(r => $"{r.Second},{r.Process},{r.Module},{r.Kernel},{r.Weight}"));
        Assert.Equal(mapping.SampleCount, mapping.Timeline.Sum(r => r.Weight));
    }

    [Fact]
    public void Kept_samples_carry_process_thread_cpu_time_and_their_stack()
    {
        var mapping = EtwStackMapper.Map(SeedTrace(), PhaseStart, EtwSymbolMode.Resolved, keepSamples: true);

        Assert.Equal(21, mapping.Samples.Count);
        var first = mapping.Samples[0];
        Assert.Equal(("sqlservr", 4242, 100, 0, 0.0, 1L), (first.Process, first.Pid, first.Tid, first.Cpu, first.TimestampSeconds, first.Weight));
        var leaf = mapping.Profile.FramesOf(first.StackId).Last();
        Assert.Equal(new Frame("bcryptprimitives", "SymCryptSha256AppendBlocks", FrameKind.User), leaf);
        Assert.Equal(1.5, mapping.Samples[6].TimestampSeconds, 6);
    }

    [Fact]
    public void Module_files_keep_the_traced_image_names_for_messages()
    {
        var mapping = EtwStackMapper.Map(SeedTrace(), PhaseStart, EtwSymbolMode.ModulesOnly);

        Assert.Equal("sqldk.dll", mapping.ModuleFiles["sqldk"]);
        Assert.Equal("bcryptPrimitives.dll", mapping.ModuleFiles["bcryptprimitives"]);
        Assert.Equal("ntoskrnl.exe", mapping.ModuleFiles["ntoskrnl"]);
    }

    [Fact]
    public void With_the_server_pid_another_sqlservr_instance_is_filed_as_other_and_stays_out_of_the_module_shares()
    {
        // Two instances on one machine: the captured one (pid 4242) hashes, the other (pid 5150) allocates pages.
        var source = new RecordedEtwStackSource(PhaseStart)
            .AddOf(4242, "sqlservr", 6, 0, [.. WorkerRoot, Bcrypt("BCryptHash")])
            .AddOf(5150, "sqlservr", 9, 0, [.. WorkerRoot, Sqldk("MemoryNode::AllocatePagesInternal")])
            .AddOf(77, "Idle", 2, 0, Ntoskrnl("KiIdleLoop"));
        var settings = new EtwCpuSettings { RunId = "r1", ServerProcess = "sqlservr", ServerPid = 4242 };

        var mapping = EtwStackMapper.Map(source, PhaseStart, EtwSymbolMode.Resolved, workload: settings.Workload);
        var lines = Folded(mapping.Profile);

        Assert.Contains(lines, l => l.StartsWith("sqlservr;", StringComparison.Ordinal) && l.Contains("bcrypt!BCryptHash", StringComparison.Ordinal) && l.EndsWith(" 6", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("other:sqlservr;", StringComparison.Ordinal) && l.Contains("AllocatePagesInternal", StringComparison.Ordinal) && l.EndsWith(" 9", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.StartsWith("sqlservr;", StringComparison.Ordinal) && l.Contains("AllocatePagesInternal", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("Idle;", StringComparison.Ordinal));
        Assert.Contains(mapping.Timeline, r => r.Process == "other:sqlservr");
        var shares = ModuleShares.Compute(mapping.Profile, "sqlservr");
        Assert.DoesNotContain(shares, m => m.Module == "sqldk" && m.ExclusiveShare > 0);
        Assert.Equal(1.0, shares.Single(m => m.Module == "bcrypt").ExclusiveShare, 3);

        // Without the pid (a server on another machine, an old capture) both instances count, as before.
        var byName = Folded(EtwStackMapper.Map(source, PhaseStart, EtwSymbolMode.Resolved).Profile);
        Assert.DoesNotContain(byName, l => l.StartsWith("other:", StringComparison.Ordinal));
        Assert.Null(new EtwCpuSettings { RunId = "r1", ServerProcess = "sqlservr" }.Workload);
    }

    private static List<string> Folded(StackProfile profile)
    {
        var writer = new StringWriter();
        FoldedStackFormat.Write(profile, writer);
        return writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries).ToList();
    }
}
