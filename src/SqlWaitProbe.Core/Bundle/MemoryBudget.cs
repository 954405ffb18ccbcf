namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// The analysis memory budget (<see cref="BundleLimits.AnalysisBytes"/>, <c>PROBE_MAX_ANALYSIS_MIB</c>), held per line
/// read and per frame or stack interned: a file of 100 lines of 100,000 distinct frames each grows the frame table by
/// a million entries every ten lines, which a check every 16,384 lines never saw (7.5 GB resident at a 1 GiB budget).
/// A check is one read of the heap size; only above the budget is the heap collected, to count live memory rather than
/// garbage, and then at most once per eighth of the budget allocated since, so a heap that hovers near the budget is
/// not collected line after line. Live memory is thus stopped within an eighth of the budget past it.
/// </summary>
public static class MemoryBudget
{
    private static readonly Lock Gate = new();
    private static readonly Lazy<long> FromEnvironment = new(() => BundleLimits.FromEnvironment().AnalysisBytes);
    private static long _allocatedAtCollection;
    private static long _liveAtCollection = long.MaxValue;

    /// <summary>The budget the environment sets, read once per process.</summary>
    public static long CurrentBytes => FromEnvironment.Value;

    /// <summary>
    /// Throws the bad-input error naming <c>PROBE_MAX_ANALYSIS_MIB</c> when live managed memory is past
    /// <paramref name="budgetBytes"/>; <paramref name="what"/> (a file, or what was being built) and
    /// <paramref name="line"/> say where.
    /// </summary>
    public static void Check(long budgetBytes, string what, long? line = null)
    {
        if (GC.GetTotalMemory(forceFullCollection: false) <= budgetBytes)
        {
            return;
        }

        long live;
        lock (Gate)
        {
            var allocated = GC.GetTotalAllocatedBytes(precise: false);
            if (allocated - _allocatedAtCollection < budgetBytes / 8 && _liveAtCollection <= budgetBytes)
            {
                return;
            }

            live = GC.GetTotalMemory(forceFullCollection: true);
            (_allocatedAtCollection, _liveAtCollection) = (GC.GetTotalAllocatedBytes(precise: false), live);
        }

        if (live > budgetBytes)
        {
            throw BundleLimits.Exceeded(
                $"reading this takes analysis past its memory budget ({budgetBytes >> 20} MiB), with {live >> 20} MiB in use",
                $"{budgetBytes >> 20} MiB of memory", BundleLimits.AnalysisVariable, what, line);
        }
    }
}
