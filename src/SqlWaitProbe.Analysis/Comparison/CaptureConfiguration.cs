using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>What differs between captures' recorded configurations and options, and column labels derived from it.</summary>
public static class CaptureConfiguration
{
    /// <summary>Options that name where a capture wrote or which server it used, not how it ran.</summary>
    private static readonly HashSet<string> NotConfiguration = new(StringComparer.Ordinal)
    {
        "--output", "--server", "--password-env", "--user", "--yes", "--verbose", "embedded.bin", "--max-duration",
        "--min-free-disk-mb", "--max-perf-mb", "--max-xe-mb", "--no-analyze", "--symbols", "--offline",
    };

    /// <summary>
    /// Settings whose values differ: what ran (workload, sessions per phase, engine, CPU stacks) first, then the
    /// configuration, then the other capture options, each in name order. An option a capture was not given is compared
    /// by what the bundle records it ran with (the engine, workload, sessions and CPU collector are in the manifest) or
    /// else as its default, never as missing: the manifest lists only the options given. <paramref name="isInstance"/>
    /// tells the configuration entries that name a server instance rather than configure it (the engine module's
    /// <c>InstanceSettings</c>): they always differ, so they are left out.
    /// </summary>
    public static IReadOnlyList<ConfigurationRow> Differences(IReadOnlyList<BundleManifest> manifests, Func<string, bool> isInstance)
    {
        var rows = new List<ConfigurationRow>();
        rows.AddRange(Ran(manifests).Where(r => r.Values.Distinct(StringComparer.Ordinal).Count() > 1));
        rows.AddRange(Differing(manifests, m => m.Experiment?.Effective ?? NoSettings, _ => true, "manifest.json experiment (read back from the server)", _ => null));
        rows.AddRange(Differing(manifests, m => m.Configuration, k => !isInstance(k), "manifest.json configuration", _ => null));
        rows.AddRange(Differing(manifests, m => m.Options, k => !NotConfiguration.Contains(k) && !RanOptions.Contains(k), "manifest.json options", _ => "default"));
        return rows;
    }

    /// <summary>
    /// A label per capture, saying what differs: the workload, the sessions of the main phase (<c>4 sessions</c>), else the
    /// first differing setting whose values tell every capture apart (<c>memory model=LOCK_PAGES</c>; a file such as
    /// <c>--sql md5.sql</c> by its name); else <paramref name="fallback"/> (e.g. the bundles' names). A configuration
    /// entry is named without its engine's prefix; <paramref name="isInstance"/> is as for <see cref="Differences"/>.
    /// </summary>
    public static IReadOnlyList<string> Labels(IReadOnlyList<BundleManifest> manifests, IReadOnlyList<string> fallback, Func<string, bool> isInstance)
    {
        var prefixes = manifests.Select(m => m.Engine + ".").Where(p => p.Length > 1).Distinct(StringComparer.Ordinal).ToArray();
        foreach (var row in Differences(manifests, isInstance))
        {
            var labels = row.Setting switch
            {
                Workload => row.Values.Select(v => v ?? "").ToArray(),
                Sessions => manifests.Select(m => MainThreads(m) is { } n ? $"{n} session{(n == 1 ? "" : "s")}" : "").ToArray(),
                _ => row.Values.Select(v => v is not null && IsPath(v) ? Path.GetFileNameWithoutExtension(v.Replace('\\', '/')) : $"{Short(row.Setting, prefixes)}={v ?? "not recorded"}").ToArray(),
            };
            if (labels.Distinct(StringComparer.Ordinal).Count() == labels.Length && labels.All(l => l.Length is > 0 and <= 40))
            {
                return labels;
            }
        }

        return Unique(fallback);
    }

    private static readonly Dictionary<string, string> NoSettings = [];

    private const string Workload = "workload";
    private const string Sessions = "sessions per phase";

    /// <summary>Options whose effective value the manifest records elsewhere; compared as <see cref="Ran"/> rows.</summary>
    private static readonly HashSet<string> RanOptions = new(StringComparer.Ordinal) { "--workload", "--threads", "--engine", "--cpu" };

    /// <summary>What each capture ran with, as the manifest records it whether or not an option asked for it.</summary>
    private static IEnumerable<ConfigurationRow> Ran(IReadOnlyList<BundleManifest> manifests)
    {
        yield return new ConfigurationRow(Workload, [.. manifests.Select(m => (string?)m.Workload)], "manifest.json workload");
        yield return new ConfigurationRow(Sessions, [.. manifests.Select(m => (string?)string.Join(", ", m.Phases.Select(p => $"{p.Name} {p.Threads}")))], "manifest.json phases");
        yield return new ConfigurationRow("engine", [.. manifests.Select(m => (string?)m.Engine)], "manifest.json engine");
        yield return new ConfigurationRow("CPU stacks", [.. manifests.Select(CpuCollector)], "manifest.json collectors");
    }

    /// <summary>The CPU stack collector a capture ran (perf, etw), <c>none</c> without one.</summary>
    private static string? CpuCollector(BundleManifest m) =>
        m.Collectors.Select(c => c.Name).FirstOrDefault(n => n is "perf" or "etw") ?? (m.Options.TryGetValue("--cpu", out var asked) ? asked : "none");

    /// <summary>Sessions of the capture's main phase (load, else the one with most sessions).</summary>
    private static int? MainThreads(BundleManifest m) =>
        (m.Phases.FirstOrDefault(p => p.Name == PhaseNames.Load) ?? m.Phases.OrderByDescending(p => p.Threads).FirstOrDefault())?.Threads;

    private static IEnumerable<ConfigurationRow> Differing(IReadOnlyList<BundleManifest> manifests, Func<BundleManifest, IReadOnlyDictionary<string, string>> values, Func<string, bool> keep, string source, Func<string, string?> absent) =>
        manifests.SelectMany(m => values(m).Keys).Distinct(StringComparer.Ordinal).Where(keep).Order(StringComparer.Ordinal)
            .Select(key => new ConfigurationRow(key, manifests.Select(m => values(m).TryGetValue(key, out var v) ? v : absent(key)).ToArray(), source))
            .Where(r => r.Values.Distinct(StringComparer.Ordinal).Count() > 1);

    private static bool IsPath(string value) => value.Contains('/') || value.Contains('\\');

    /// <summary>A setting's name without its dashes, or without the prefix of its engine's configuration entries (<c>engine.</c>).</summary>
    private static string Short(string name, string[] enginePrefixes) =>
        name.StartsWith("--", StringComparison.Ordinal) ? name[2..]
        : enginePrefixes.FirstOrDefault(p => name.StartsWith(p, StringComparison.Ordinal)) is { } prefix ? name[prefix.Length..]
        : name;

    private static string[] Unique(IReadOnlyList<string> names) =>
        names.Distinct(StringComparer.Ordinal).Count() == names.Count ? [.. names] : names.Select((n, i) => $"{n} ({Letters(i)})").ToArray();

    /// <summary>A, B, …, Z, AA, AB, … as spreadsheet columns go, so the 27th of 30 same-named bundles is AA, not A again.</summary>
    private static string Letters(int index)
    {
        var letters = "";
        for (var n = index + 1; n > 0; n = (n - 1) / 26)
        {
            letters = (char)('A' + ((n - 1) % 26)) + letters;
        }

        return letters;
    }
}
