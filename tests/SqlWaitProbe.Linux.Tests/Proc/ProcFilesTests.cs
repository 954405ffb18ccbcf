using SqlWaitProbe.Linux.Proc;

namespace SqlWaitProbe.Linux.Tests.Proc;

public sealed class ProcFilesTests
{
    [Fact]
    public void Stat_fields_are_counted_after_the_last_parenthesis()
    {
        // A command name with spaces and parentheses must not shift utime (14) and stime (15).
        const string stat = "4242 (post gres) (x) S 1 4242 4242 0 -1 4194560 500 0 0 0 1234 567 0 0 20 0 1 0 100 1000 10";
        Assert.Equal(1234 + 567, ProcFiles.ParseStatCpuTicks(stat));
    }

    [Fact]
    public void Schedstat_run_queue_is_the_second_number() =>
        Assert.Equal(5_000_000, ProcFiles.ParseSchedstatRunQueueNs("123456789 5000000 42\n"));

    [Fact]
    public void Own_process_is_readable_and_ticks_are_known()
    {
        var own = ProcFiles.ReadProcess(Environment.ProcessId);
        Assert.NotNull(own);
        Assert.True(own.Value.CpuTicks > 0);
        Assert.Equal(100, ProcFiles.TicksPerSecond);
        Assert.Null(ProcFiles.ReadProcess(int.MaxValue));
    }
}
