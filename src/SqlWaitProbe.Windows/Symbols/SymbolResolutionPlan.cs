using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Symbols;

/// <summary>
/// Picks the modules worth loading symbols for, most sampled first: the server process's modules lead, then
/// the busiest modules of the rest. Module-level analysis needs none of this, so the list is short.
/// </summary>
public static class SymbolResolutionPlan
{
    /// <summary>Default number of modules to resolve.</summary>
    public const int DefaultMaxModules = 12;

    /// <summary>Modules below this share of all samples are not worth a download.</summary>
    public const double DefaultMinShare = 0.005;

    /// <summary>Module names to resolve, in order.</summary>
    public static IReadOnlyList<string> Choose(EtwStackMapping mapping, string? serverProcess, int maxModules = DefaultMaxModules, double minShare = DefaultMinShare)
    {
        ArgumentNullException.ThrowIfNull(mapping);
        var floor = Math.Max(1, (long)Math.Ceiling(mapping.SampleCount * minShare));
        var chosen = new List<string>();

        void AddRanked(IEnumerable<KeyValuePair<string, long>> ranked)
        {
            foreach (var (module, weight) in ranked.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, StringComparer.Ordinal))
            {
                if (chosen.Count >= maxModules)
                {
                    return;
                }

                if (module.Length > 0 && weight >= floor && !chosen.Contains(module))
                {
                    chosen.Add(module);
                }
            }
        }

        if (!string.IsNullOrEmpty(serverProcess))
        {
            AddRanked(mapping.InclusiveModuleSamples
                .Where(kv => string.Equals(kv.Key.Process, serverProcess, StringComparison.OrdinalIgnoreCase))
                .Select(kv => KeyValuePair.Create(kv.Key.Module, kv.Value)));
        }

        AddRanked(mapping.InclusiveModuleSamples
            .GroupBy(kv => kv.Key.Module, StringComparer.Ordinal)
            .Select(g => KeyValuePair.Create(g.Key, g.Sum(kv => kv.Value))));
        return chosen;
    }

    /// <summary>The progress line for one module, e.g. <c>loading symbols for sqldk.dll (3/12)</c>.</summary>
    public static string ProgressMessage(string moduleFile, int index, int count) => $"loading symbols for {moduleFile} ({index}/{count})";
}
