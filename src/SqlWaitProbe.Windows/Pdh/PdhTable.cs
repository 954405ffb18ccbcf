namespace SqlWaitProbe.Windows.Pdh;

/// <summary>Counter samples over time, the content of a PDH-CSV file.</summary>
/// <param name="Machine">The machine the counters were read on (<c>\\HOST</c> without the backslashes).</param>
/// <param name="Counters">Counter paths without the machine, e.g. <c>\Processor(_Total)\% Processor Time</c>.</param>
/// <param name="Rows">Samples in time order.</param>
public sealed record PdhTable(string Machine, IReadOnlyList<string> Counters, IReadOnlyList<PdhRow> Rows)
{
    /// <summary>The column of <paramref name="counterPath"/> (case-insensitive, as PDH compares), or -1.</summary>
    public int IndexOf(string counterPath)
    {
        for (var i = 0; i < Counters.Count; i++)
        {
            if (string.Equals(Counters[i], counterPath, StringComparison.OrdinalIgnoreCase))
            {
                return i;
            }
        }

        return -1;
    }
}
