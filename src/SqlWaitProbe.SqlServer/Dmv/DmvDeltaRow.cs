namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>One row's change over an interval or a phase.</summary>
/// <param name="Key">The joined key (parts separated by <see cref="DmvSnapshot.KeySeparator"/>).</param>
/// <param name="Deltas">Counter deltas, in <see cref="DmvDefinition.Counters"/> order.</param>
/// <param name="GaugeStart">Gauge values at the start (0 when the row was absent), in <see cref="DmvDefinition.Gauges"/> order.</param>
/// <param name="GaugeEnd">Gauge values at the end (the last seen value when the row disappeared).</param>
/// <param name="Restarts">How many intervals saw a counter of the row go down and counted it from zero again.</param>
public sealed record DmvDeltaRow(string Key, long[] Deltas, long[] GaugeStart, long[] GaugeEnd, int Restarts)
{
    /// <summary>The key's parts.</summary>
    public string[] KeyParts => Key.Split(DmvSnapshot.KeySeparator);

    /// <summary>How many intervals saw an <c>int</c> counter of the row wrap past 2,147,483,647 (counted modulo 2^32).</summary>
    public int Wraps { get; init; }
}
