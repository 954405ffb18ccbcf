namespace SqlWaitProbe.Analysis.Input;

/// <summary>xe/page_events.csv aggregated per second and memory clerk (memory bounded by seconds × clerks).</summary>
public sealed class XePageStats
{
    /// <summary>Pages allocated and freed per (second since phase start, clerk).</summary>
    public SortedDictionary<(long Second, string Clerk), (double Allocated, double Freed)> PerSecond { get; } = new();

    /// <summary>Events read.</summary>
    public long Events { get; set; }

    /// <summary>page_freed events read.</summary>
    public long FreeEvents { get; set; }

    /// <summary>page_allocated events read.</summary>
    public long AllocEvents { get; set; }

    public double PagesAllocated => PerSecond.Values.Sum(v => v.Allocated);

    public double PagesFreed => PerSecond.Values.Sum(v => v.Freed);

    /// <summary>Clerks by pages allocated, heaviest first.</summary>
    public IReadOnlyList<(string Clerk, double Allocated, double Freed)> ByClerk() =>
        PerSecond.GroupBy(kv => kv.Key.Clerk, StringComparer.Ordinal)
            .Select(g => (g.Key, g.Sum(kv => kv.Value.Allocated), g.Sum(kv => kv.Value.Freed)))
            .OrderByDescending(t => t.Item2).ThenBy(t => t.Key, StringComparer.Ordinal).ToArray();

    /// <summary>Running total of pages held (allocated − freed) at the end of each second, for one clerk or all (null).</summary>
    public IReadOnlyList<(long Second, double Held)> RunningTotal(string? clerk = null)
    {
        var result = new List<(long, double)>();
        double held = 0;
        foreach (var group in PerSecond.Where(kv => clerk is null || kv.Key.Clerk == clerk).GroupBy(kv => kv.Key.Second).OrderBy(g => g.Key))
        {
            held += group.Sum(kv => kv.Value.Allocated - kv.Value.Freed);
            result.Add((group.Key, held));
        }

        return result;
    }
}
