namespace SqlWaitProbe.Core.Watch;

/// <summary>What a watch trigger measures.</summary>
public enum TriggerKind
{
    /// <summary><c>wait:NAME&gt;P%</c>: a wait's share of active session time over the last 10 s.</summary>
    Wait,

    /// <summary><c>runqueue&gt;P%</c>: the watched sessions' time waiting for a CPU, as a share of their active time over the last 10 s.</summary>
    RunQueue,

    /// <summary><c>cpu&gt;P%</c>: the machine's CPU busy over the last 10 s.</summary>
    Cpu,

    /// <summary><c>blocked&gt;SECONDS</c>: a session waiting for a lock another holds for longer than that.</summary>
    Blocked,

    /// <summary><c>latency&gt;MS</c>: a statement running for longer than that.</summary>
    Latency,

    /// <summary><c>probe watch --dump DIR</c> from another shell.</summary>
    Manual,
}
