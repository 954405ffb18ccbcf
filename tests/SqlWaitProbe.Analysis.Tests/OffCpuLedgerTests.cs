using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Analysis.OffCpu;
using SqlWaitProbe.Modules;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>The ledger splits off-CPU time by kernel stack without booking database waits or run queue twice.</summary>
public sealed class OffCpuLedgerTests
{
    private const string ChildWait = "postgres;postgres!PostgresMain;postgres!DoCopy;postgres!ClosePipeStream;libc.so.6!__GI___wait4;[kernel.kallsyms]!entry_SYSCALL_64_after_hwframe_[k];[kernel.kallsyms]!kernel_wait4_[k];[kernel.kallsyms]!do_wait_[k];[kernel.kallsyms]!schedule_[k];[kernel.kallsyms]!__schedule_[k]";
    private const string LockSleep = "postgres;postgres!PostgresMain;postgres!LockAcquireExtended;postgres!PGSemaphoreLock;libc.so.6!do_futex_wait;[kernel.kallsyms]!do_futex_[k];[kernel.kallsyms]!futex_wait_[k];[kernel.kallsyms]!schedule_[k];[kernel.kallsyms]!__schedule_[k]";
    private const string Preempted = "postgres;postgres!ExecAgg;[kernel.kallsyms]!irqentry_exit_to_user_mode_[k];[kernel.kallsyms]!schedule_[k];[kernel.kallsyms]!__schedule_[k]";

    // 2 sessions, 10 executions of 250 ms each: 50 ms on the CPU, then 200 ms waiting for a child program.
    private static CraftedBundle ChildProgram()
    {
        var b = new CraftedBundle("postgres", "postgres") { LogicalCpus = 2 }
            .Phase("load", threads: 2, executionsPerSession: 10, msEach: 250)
            .OffCpuStack("load", 0, ChildWait).OffCpuStack("load", 1, Preempted);
        for (var s = 1; s <= 2; s++)
        {
            for (var i = 0; i < 10; i++)
            {
                b.OffCpuInterval("load", i * 250 + 50, i * 250 + 250, s, 'S', 0);
            }

            b.SessionReading("load", s, 0, 0, 0).SessionReading("load", s, 2500, 500, 0);
        }

        return b;
    }

    [Fact]
    public void Time_blocked_on_a_child_program_is_named_by_its_stack_in_the_ledger_and_the_findings()
    {
        var a = Analyze.Crafted(ChildProgram().Wait("load", "Lock:relation", 0));
        var l = a.Ledgers[0];

        var blocked = Assert.Single(l.UnaccountedCauses, c => c.Cause.StartsWith(TimeLedger.BlockedPrefix, StringComparison.Ordinal));
        Assert.Equal("blocked in the kernel — waiting for a child process: do_wait ← __GI___wait4 ← … ← ClosePipeStream", blocked.Cause);
        Assert.Equal(4.0, blocked.Seconds, 6);
        Assert.True(blocked.Seconds / l.SessionSeconds >= 0.8);
        Assert.Equal(0, l.UnaccountedCauses[^1].Seconds, 3);
        var f = Assert.Single(a.Findings, f => f.Id == "offcpu-blocked");
        Assert.Equal("critical", f.Severity);
        Assert.Equal("In load, sessions were blocked in the kernel outside database waits for 80% of session time, most waiting for a child process: do_wait ← __GI___wait4 ← … ← ClosePipeStream (200 ms per execution)", f.Title);
        Assert.Contains(f.Evidence, e => e.Contains("report/flamegraph-offcpu-load.svg", StringComparison.Ordinal));
    }

    [Fact]
    public void Blocked_time_a_database_wait_covers_stays_a_wait_and_is_not_counted_again()
    {
        // A lock convoy: every blocked stretch is a sampled Lock wait.
        var b = new CraftedBundle("postgres", "postgres") { LogicalCpus = 2 }
            .Phase("load", threads: 1, executionsPerSession: 4, msEach: 100)
            .OffCpuStack("load", 0, LockSleep)
            .SessionReading("load", 1, 0, 0, 0).SessionReading("load", 1, 400, 80, 0);
        for (var i = 0; i < 4; i++)
        {
            b.OffCpuInterval("load", i * 100 + 20, i * 100 + 100, 1, 'S', 0);
            for (var ms = 25; ms < 100; ms += 10)
            {
                b.WaitSample("load", i * 100 + ms, 1, "Lock:transactionid", 10);
            }
        }

        var l = Analyze.Crafted(b).Ledgers[0];

        Assert.Equal(0.32, l.WaitSeconds, 6);
        var stack = Assert.Single(l.OffCpu!.Stacks);
        Assert.Equal(320, stack.BlockedMs, 6);
        Assert.Equal(320, stack.InWaitsMs, 6);
        Assert.DoesNotContain(l.UnaccountedCauses, c => c.Cause.StartsWith(TimeLedger.BlockedPrefix, StringComparison.Ordinal));
        Assert.Equal(0, l.UnaccountedCauses[^1].Seconds, 6);
        Assert.StartsWith("waiting on a futex", stack.Label, StringComparison.Ordinal);
    }

    [Fact]
    public void Wake_up_latency_and_preemption_are_run_queue_not_blocked_time()
    {
        // One session, 1000 ms: 400 ms CPU, 100 ms preempted, 500 ms off the CPU after sleeping (of which 100 ms runnable
        // after the wake-up); schedstat's run queue holds both runnable parts: 200 ms.
        var b = new CraftedBundle("postgres", "postgres")
            .Phase("load", threads: 1, executionsPerSession: 1, msEach: 1000)
            .OffCpuStack("load", 0, ChildWait).OffCpuStack("load", 1, Preempted)
            .OffCpuInterval("load", 100, 200, 1, 'R', 1).OffCpuInterval("load", 300, 800, 1, 'S', 0)
            .SessionReading("load", 1, 0, 0, 0).SessionReading("load", 1, 1000, 400, 200);

        var l = Analyze.Crafted(b).Ledgers[0];

        Assert.Equal(100, l.OffCpu!.PreemptedMs, 6);
        Assert.Equal(100, l.OffCpu.WakeLatencyMs, 6);
        Assert.Equal(0.2, l.UnaccountedCauses.Single(c => c.Cause == TimeLedger.RunQueue).Seconds, 6);
        Assert.Equal(0.4, l.UnaccountedCauses.Single(c => c.Cause.StartsWith(TimeLedger.BlockedPrefix, StringComparison.Ordinal)).Seconds, 6);
        Assert.Equal(0, l.UnaccountedCauses[^1].Seconds, 6);
    }

    [Fact]
    public void Off_cpu_stretches_outside_a_sessions_executions_are_cut_to_them()
    {
        var b = ChildProgram().OffCpuInterval("load", -500, 60, 1, 'S', 0).OffCpuInterval("load", 2490, 4000, 2, 'S', 0);

        var l = Analyze.Crafted(b).Ledgers[0];

        // 60 ms of the first stretch fall inside session 1's span (from 0 ms) and 10 ms of the second inside session 2's (to 2500 ms).
        Assert.Equal(4000 + 60 + 10, l.OffCpu!.BlockedMs, 6);
    }

    [Fact]
    public void Much_unexplained_off_cpu_time_without_off_cpu_stacks_recommends_capturing_them()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres").Phase("load", 2, 10, 250).Sessions("load", cpuMs: 500, runQueueMs: 0).Wait("load", "Lock:relation", 1));

        var f = Assert.Single(a.Findings, f => f.Id == "offcpu-recommended");
        Assert.Contains("--offcpu on", f.Title, StringComparison.Ordinal);
        Assert.DoesNotContain(Analyze.Crafted(ChildProgram()).Findings, x => x.Id == "offcpu-recommended");
    }

    [Theory]
    [InlineData("postgres;libc.so.6!read;[kernel.kallsyms]!ksys_read_[k];[kernel.kallsyms]!anon_pipe_read_[k];[kernel.kallsyms]!schedule_[k];[kernel.kallsyms]!__schedule_[k]", "waiting on a pipe (a child program's output): anon_pipe_read ← read")]
    [InlineData("postgres;postgres!WaitEventSetWait;libc.so.6!epoll_wait;[kernel.kallsyms]!do_epoll_wait_[k];[kernel.kallsyms]!schedule_hrtimeout_range_clock_[k];[kernel.kallsyms]!schedule_[k]", "waiting for a socket or event (poll): do_epoll_wait ← epoll_wait ← … ← WaitEventSetWait")]
    [InlineData("postgres;postgres!ExecHashJoin;[kernel.kallsyms]!asm_exc_page_fault_[k];[kernel.kallsyms]!exc_page_fault_[k];[kernel.kallsyms]!down_read_[k];[kernel.kallsyms]!rwsem_down_read_slowpath_[k];[kernel.kallsyms]!schedule_[k]", "in a page fault: rwsem_down_read_slowpath ← ExecHashJoin")]
    [InlineData("sqlservr;sqlmin!LogWriter;ntdll!NtWaitForSingleObject;ntoskrnl!KeWaitForSingleObject_[k];ntoskrnl!KiCommitThreadWait_[k];ntoskrnl!KiSwapThread_[k]", "blocked in KeWaitForSingleObject: KeWaitForSingleObject ← NtWaitForSingleObject ← … ← LogWriter")]
    public void Stacks_are_named_by_what_they_waited_for(string stack, string label) =>
        Assert.Equal(label, OffCpuLabel.For(stack, Registered.Analysis.ProcessFor("", stack.Split(';')[0])));

    [Fact]
    public void Waits_read_once_a_second_without_sessions_cover_the_stacks_through_the_servers_wait_points()
    {
        // pg_wait_sampling's profile: 300 ms of Lock waits, no session, no precise time.
        const string latch = "postgres;postgres!LockAcquireExtended;postgres!WaitLatch;postgres!WaitEventSetWait;libc.so.6!epoll_wait;[kernel.kallsyms]!do_epoll_wait_[k];[kernel.kallsyms]!schedule_[k]";
        var b = new CraftedBundle("postgres", "postgres")
            .Phase("load", threads: 1, executionsPerSession: 4, msEach: 100)
            .OffCpuStack("load", 0, latch).OffCpuStack("load", 1, ChildWait)
            .SessionReading("load", 1, 0, 0, 0).SessionReading("load", 1, 400, 40, 0)
            .WaitSample("load", 200, null, "Lock:advisory", 300);
        for (var i = 0; i < 4; i++)
        {
            b.OffCpuInterval("load", i * 100 + 10, i * 100 + 85, 1, 'S', 0).OffCpuInterval("load", i * 100 + 85, i * 100 + 100, 1, 'S', 1);
        }

        var l = Analyze.Crafted(b).Ledgers[0];

        Assert.Equal(300, l.OffCpu!.Stacks.Single(s => s.Stack == latch).InWaitsMs, 6);
        Assert.Equal(0, l.OffCpu.Stacks.Single(s => s.Stack == ChildWait).InWaitsMs, 6);
        Assert.Equal(0.06, l.UnaccountedCauses.Single(c => c.Cause.Contains("do_wait", StringComparison.Ordinal)).Seconds, 6);
        Assert.Equal(0, l.UnaccountedCauses[^1].Seconds, 6);
    }
}
