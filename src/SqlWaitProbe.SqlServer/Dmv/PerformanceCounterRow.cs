namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>One raw row of <c>sys.dm_os_performance_counters</c> (names already trimmed).</summary>
public sealed record PerformanceCounterRow(string ObjectName, string CounterName, string InstanceName, long Value, int Type)
{
    /// <summary>The identity of the counter: object, counter and instance.</summary>
    public (string, string, string) Id => (ObjectName, CounterName, InstanceName);
}
