using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Core.Tests.Stacks;

public sealed class WorkloadProcessesTests
{
    // The postmaster (100) since boot second 50, a backend (101) from 60 to 70 whose pid a stranger got at 80.
    private static readonly WorkloadProcesses Set = new("postgres",
    [
        new WorkloadProcess(100, 1, "postgres", 5000, 50.0, 90.0, RunningAtEnd: true),
        new WorkloadProcess(101, 100, "postgres", 6000, 60.0, 70.0, RunningAtEnd: false),
    ]);

    [Fact]
    public void Samples_of_recorded_processes_keep_the_server_name_and_other_servers_are_filed_as_other()
    {
        Assert.Equal("postgres", Set.Label("postgres", 100, 55));
        Assert.Equal("postgres", Set.Label("postgres", 101, 65));
        Assert.Equal("other:postgres", Set.Label("postgres", 4711, 65));
        Assert.Equal("bash", Set.Label("bash", 4711, 65));
    }

    [Fact]
    public void A_reused_pid_is_not_the_workload_outside_its_recorded_lifetime()
    {
        // Before the backend started, and after it ended (last seen 70, plus the poll slack): another process's samples.
        Assert.Equal("other:postgres", Set.Label("postgres", 101, 59));
        Assert.Equal("postgres", Set.Label("postgres", 101, 70.2));
        Assert.Equal("other:postgres", Set.Label("postgres", 101, 80));

        // Without a common clock only the pid is compared.
        Assert.Equal("postgres", Set.Label("postgres", 101, double.NaN));
    }

    [Fact]
    public void The_clock_check_accepts_sample_times_inside_the_recording_window_only()
    {
        Assert.True(WorkloadProcesses.SameClock(101.5, 130, 100, 130));
        Assert.False(WorkloadProcesses.SameClock(1_700_000_000, 1_700_000_030, 100, 130));
        Assert.False(WorkloadProcesses.SameClock(double.NaN, double.NaN, 100, 130));
    }

    [Fact]
    public void The_record_lists_every_process_with_its_identity()
    {
        var writer = new StringWriter();
        Set.Write(writer);

        Assert.Equal(
            BundleColumns.Header(BundleColumns.Processes.All) + "\n"
            + "100,1,postgres,5000,50.00,90.00,1\n"
            + "101,100,postgres,6000,60.00,70.00,0\n",
            writer.ToString());
    }

    [Fact]
    public void Only_the_workload_is_the_server_process_even_when_it_was_idle()
    {
        var profile = new StackProfile();
        var frame = profile.Frames.Intern(new Frame("postgres", "PostgresMain", FrameKind.User));
        var stack = profile.Stacks.Push(StackTable.Empty, frame);
        profile.Add(WorkloadProcesses.OtherName("postgres"), stack, 10);
        profile.Add("bash", stack, 3);

        // No sample of the capture's own server: its stacks are empty, never the other server's or everything.
        Assert.Equal(0, profile.OnlyProcess("postgres").TotalWeight);

        // Stacks from another tool, with no server-named process at all, still show whole.
        var foreign = new StackProfile();
        foreign.Add("java", foreign.Stacks.Push(StackTable.Empty, foreign.Frames.Intern(new Frame("libjvm.so", "run", FrameKind.User))), 5);
        Assert.Same(foreign, foreign.OnlyProcess("postgres"));
    }
}
