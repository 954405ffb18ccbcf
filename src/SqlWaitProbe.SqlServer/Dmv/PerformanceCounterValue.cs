namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>A counter's meaningful value over an interval, computed by its <c>cntr_type</c>.</summary>
/// <param name="ObjectName">Performance object, e.g. <c>SQLServer:SQL Statistics</c>.</param>
/// <param name="CounterName">Counter, e.g. <c>Batch Requests/sec</c>.</param>
/// <param name="InstanceName">Instance, empty when none.</param>
/// <param name="Type">The <c>cntr_type</c>.</param>
/// <param name="Value">Point value, per-second rate, percentage or average, by type.</param>
/// <param name="Kind"><c>point</c>, <c>rate</c>, <c>fraction</c> or <c>average</c>.</param>
/// <param name="Restarted">True when the raw value went down and was read as a restart from zero.</param>
public sealed record PerformanceCounterValue(string ObjectName, string CounterName, string InstanceName, int Type, double Value, string Kind, bool Restarted);
