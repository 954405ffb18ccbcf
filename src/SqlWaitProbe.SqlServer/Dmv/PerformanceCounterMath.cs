namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Turns two snapshots of <c>sys.dm_os_performance_counters</c> into values by <c>cntr_type</c>:
/// 65792 point value; 272696576 rate = Δvalue/Δseconds; 537003264 value/base × 100;
/// 1073874176 ΔA/ΔB with its base; 1073939712 is a base (denominator only, not reported).
/// </summary>
public static class PerformanceCounterMath
{
    /// <summary>PERF_COUNTER_LARGE_RAWCOUNT.</summary>
    public const int LargeRawCount = 65792;
    /// <summary>PERF_COUNTER_BULK_COUNT.</summary>
    public const int BulkCount = 272696576;
    /// <summary>PERF_LARGE_RAW_FRACTION.</summary>
    public const int LargeRawFraction = 537003264;
    /// <summary>PERF_AVERAGE_BULK.</summary>
    public const int AverageBulk = 1073874176;
    /// <summary>PERF_LARGE_RAW_BASE.</summary>
    public const int LargeRawBase = 1073939712;

    /// <summary>Values over the interval from <paramref name="before"/> to <paramref name="after"/>, which lasted <paramref name="seconds"/>.</summary>
    public static IReadOnlyList<PerformanceCounterValue> Compute(IReadOnlyList<PerformanceCounterRow> before, IReadOnlyList<PerformanceCounterRow> after, double seconds)
    {
        var old = new Dictionary<(string, string, string), PerformanceCounterRow>();
        foreach (var r in before)
        {
            old.TryAdd(r.Id, r);
        }

        var bases = new Dictionary<(string, string, string), PerformanceCounterRow>();
        foreach (var r in after.Where(r => r.Type == LargeRawBase))
        {
            bases.TryAdd((r.ObjectName, BaseStem(r.CounterName), r.InstanceName), r);
        }

        var result = new List<PerformanceCounterValue>();
        foreach (var r in after)
        {
            switch (r.Type)
            {
                case LargeRawCount:
                    result.Add(Value(r, r.Value, "point", false));
                    break;
                case BulkCount when seconds > 0 && old.TryGetValue(r.Id, out var o):
                {
                    var (delta, restarted) = Delta(o.Value, r.Value);
                    result.Add(Value(r, delta / seconds, "rate", restarted));
                    break;
                }

                case LargeRawFraction when BaseOf(bases, r) is { } b && b.Value != 0:
                    result.Add(Value(r, 100.0 * r.Value / b.Value, "fraction", false));
                    break;
                case AverageBulk when old.TryGetValue(r.Id, out var o)
                                      && BaseOf(bases, r) is { } b
                                      && old.TryGetValue(b.Id, out var ob):
                {
                    var (a, ra) = Delta(o.Value, r.Value);
                    var (d, rb) = Delta(ob.Value, b.Value);
                    if (d != 0)
                    {
                        result.Add(Value(r, (double)a / d, "average", ra || rb));
                    }

                    break;
                }
            }
        }

        return result;
    }

    /// <summary>The name a counter and its base share: lower case, units in parentheses removed.</summary>
    public static string Stem(string counterName)
    {
        var name = counterName.Trim();
        var paren = name.IndexOf('(');
        if (paren > 0)
        {
            name = name[..paren];
        }

        return name.Trim().ToLowerInvariant();
    }

    /// <summary>The stem of a base counter: its name without the trailing "base" (e.g. <c>Average Wait Time Base</c>).</summary>
    public static string BaseStem(string baseName)
    {
        var name = Stem(baseName);
        if (name.EndsWith(" base", StringComparison.Ordinal))
        {
            name = name[..^5];
        }
        else if (name.EndsWith(" bs", StringComparison.Ordinal))
        {
            name = name[..^3];
        }

        return name.TrimEnd();
    }

    // Most bases repeat their counter's name ("Buffer cache hit ratio" / "Buffer cache hit ratio base"); a few drop a
    // trailing "ratio" ("Worktables From Cache Ratio" / "Worktables From Cache Base"), so that is the second try.
    private static PerformanceCounterRow? BaseOf(Dictionary<(string, string, string), PerformanceCounterRow> bases, PerformanceCounterRow r)
    {
        var stem = Stem(r.CounterName);
        if (bases.TryGetValue((r.ObjectName, stem, r.InstanceName), out var b))
        {
            return b;
        }

        return stem.EndsWith(" ratio", StringComparison.Ordinal) && bases.TryGetValue((r.ObjectName, stem[..^6].TrimEnd(), r.InstanceName), out b) ? b : null;
    }

    private static (long Delta, bool Restarted) Delta(long before, long after) => after >= before ? (after - before, false) : (after, true);

    private static PerformanceCounterValue Value(PerformanceCounterRow r, double value, string kind, bool restarted) =>
        new(r.ObjectName, r.CounterName, r.InstanceName, r.Type, value, kind, restarted);
}
