using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Core.Tests.Bundle;

/// <summary>The one definition of a phase's executions that the capture summary, the report and findings.json share.</summary>
public sealed class ExecutionTallyTests
{
    [Fact]
    public void Executions_inside_the_window_count_whole()
    {
        // Execution i starts at 10·i ms and takes i + 1 ms; the last ends at 1,090 ms, inside the 2 s window.
        var tally = new ExecutionTally(2000);
        for (var i = 0; i < 100; i++)
        {
            tally.Add(i * 10, i * 10 + i + 1, error: i == 3);
        }

        var c = tally.Counts();
        Assert.Equal((100L, 1L, 0L, 100.0), (c.Executions, c.Errors, c.RunningAtEnd, c.Counted));
        Assert.Equal(5050, c.SessionMs, 9);
        Assert.Equal((50.0, 95.0, 99.0, 100.0), (c.P50, c.P95, c.P99, c.Max));
        Assert.Equal(50, c.PerSecond(2), 9);
        Assert.Equal(50.5, c.MsPerExecution, 9);
    }

    [Fact]
    public void Executions_longer_than_the_window_are_measured_up_to_its_end_and_count_as_the_share_inside()
    {
        // 96 sessions sharing 2 CPUs: each execution takes 44 s, the phase 20 s; all start at its start.
        var tally = new ExecutionTally(20_000);
        for (var s = 0; s < 96; s++)
        {
            tally.Add(s, s + 44_000, error: false);
        }

        var c = tally.Counts();
        Assert.Equal(96, c.Executions);
        Assert.Equal(96, c.RunningAtEnd);
        // Each ran 20 s of its 44 s inside: 96 × 20/44 = 43.6 executions' worth, 2.18/s, the machine's real rate (96 ÷ 44 s).
        Assert.Equal(Enumerable.Range(0, 96).Sum(s => (20_000.0 - s) / 44_000), c.Counted, 9);
        Assert.InRange(c.PerSecond(20), 2.17, 2.19);
        // Time per execution is the in-window time over the executions counted: the whole latency again.
        Assert.InRange(c.MsPerExecution, 43_999, 44_001);
        Assert.Equal(44_000, c.P50);
    }

    [Fact]
    public void An_execution_cancelled_after_the_phase_counts_its_share_up_to_the_cancellation_and_has_no_latency()
    {
        // A 20 s window; one execution of 5 s, one started at 10 s and cancelled at 30 s (still running 10 s after the end).
        var tally = new ExecutionTally(20_000);
        tally.Add(0, 5_000, false);
        tally.Add(10_000, 30_000, false, cancelled: true);

        var c = tally.Counts();
        Assert.Equal((2L, 1L, 1L, 1L), (c.Executions, c.RunningAtEnd, c.Cancelled, c.Timed));
        Assert.Equal(1 + 10_000.0 / 20_000, c.Counted, 9);
        Assert.Equal(15_000, c.SessionMs, 9);
        Assert.Equal((5_000.0, 5_000.0), (c.P50, c.Max));
    }

    [Fact]
    public void A_bundle_without_a_window_cuts_nothing()
    {
        var tally = new ExecutionTally(null);
        tally.Add(0, 50_000, false);

        var c = tally.Counts();
        Assert.Equal((1.0, 0L, 50_000.0), (c.Counted, c.RunningAtEnd, c.SessionMs));
    }

    [Fact]
    public void An_empty_phase_has_zeros_not_errors()
    {
        var c = new ExecutionTally(1000).Counts();
        Assert.Equal((0L, 0.0, 0.0, 0.0), (c.Executions, c.Counted, c.PerSecond(1), c.MsPerExecution));
        Assert.Equal((0.0, 0.0), (c.P50, c.Max));
    }
}
