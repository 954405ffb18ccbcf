namespace SqlWaitProbe.Analysis.OffCpu;

/// <summary>
/// Server functions through which a session blocks while the server reports a wait: PostgreSQL sets its wait event
/// around these, SQL Server's scheduler switches a worker out through them. Off-CPU time in stacks through them is
/// database wait time, whichever way the waits were sampled.
/// </summary>
public static class WaitPoints
{
    private static readonly string[] Functions =
    [
        "WaitEventSetWait", "WaitLatch", "WaitLatchOrSocket", "PGSemaphoreLock", "pg_usleep", "ConditionVariableSleep",
        "ConditionVariableTimedSleep", "SOS_Scheduler::SwitchContext", "SOS_Scheduler::Suspend", "SOS_Task::Sleep",
    ];

    /// <summary>True when the folded stack passes through a wait point of the server process.</summary>
    public static bool IsWait(string stack)
    {
        foreach (var frame in stack.Split(';'))
        {
            var bang = frame.IndexOf('!', StringComparison.Ordinal);
            var symbol = bang < 0 ? frame : frame[(bang + 1)..];
            if (Functions.Any(f => symbol.Equals(f, StringComparison.Ordinal) || symbol.StartsWith(f + "(", StringComparison.Ordinal)))
            {
                return true;
            }
        }

        return false;
    }
}
