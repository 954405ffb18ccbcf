using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>What differs between captures' recorded configurations and options, and column labels derived from it.</summary>
public static class CaptureConfiguration
{
    /// <summary>
    /// Settings that name the server instance rather than configure it (a data folder, a port, the probe's own
    /// session's client settings): two captures of the same configuration always differ there, so they are not a
    /// difference worth naming.
    /// </summary>
    private static readonly HashSet<string> InstanceIdentity = new(StringComparer.OrdinalIgnoreCase)
    {
        "postgres.data_directory", "postgres.config_file", "postgres.hba_file", "postgres.ident_file", "postgres.port",
        "postgres.unix_socket_directories", "postgres.external_pid_file", "postgres.cluster_name",
        "postgres.application_name", "postgres.client_encoding", "postgres.log_timezone", "postgres.TimeZone",
        "postgres.DateStyle", "postgres.lc_messages", "postgres.lc_monetary", "postgres.lc_numeric", "postgres.lc_time",
        "postgres.default_text_search_config",
    };

    /// <summary>Options that name where a capture wrote or which server it used, not how it ran.</summary>
    private static readonly HashSet<string> NotConfiguration = new(StringComparer.Ordinal)
    {
        "--output", "--server", "--password-env", "--user", "--yes", "--verbose", "embedded.bin", "--max-duration",
        "--min-free-disk-mb", "--max-perf-mb", "--max-xe-mb", "--no-analyze", "--symbols", "--offline",
    };

    /// <summary>Settings whose values differ, configuration first, then the capture options, each in name order.</summary>
    public static IReadOnlyList<ConfigurationRow> Differences(IReadOnlyList<BundleManifest> manifests)
    {
        var rows = new List<ConfigurationRow>();
        rows.AddRange(Differing(manifests, m => m.Configuration, k => !InstanceIdentity.Contains(k), "manifest.json configuration"));
        rows.AddRange(Differing(manifests, m => m.Options, k => !NotConfiguration.Contains(k), "manifest.json options"));
        return rows;
    }

    /// <summary>
    /// A label per capture: the value of the first differing configuration setting (else option) whose values tell
    /// every capture apart, shortened to a file name where it is a path; else <paramref name="fallback"/> (e.g. the
    /// bundles' names).
    /// </summary>
    public static IReadOnlyList<string> Labels(IReadOnlyList<BundleManifest> manifests, IReadOnlyList<string> fallback)
    {
        foreach (var row in Differences(manifests))
        {
            // A file (--sql FILE) is named by itself; any other setting by name=value.
            var labels = row.Values.Select(v => v is not null && IsPath(v) ? Path.GetFileNameWithoutExtension(v.Replace('\\', '/')) : $"{Short(row.Setting)}={v ?? "not set"}").ToArray();
            if (labels.Distinct(StringComparer.Ordinal).Count() == labels.Length && labels.All(l => l.Length is > 0 and <= 40))
            {
                return labels;
            }
        }

        return Unique(fallback);
    }

    private static IEnumerable<ConfigurationRow> Differing(IReadOnlyList<BundleManifest> manifests, Func<BundleManifest, IReadOnlyDictionary<string, string>> values, Func<string, bool> keep, string source) =>
        manifests.SelectMany(m => values(m).Keys).Distinct(StringComparer.Ordinal).Where(keep).Order(StringComparer.Ordinal)
            .Select(key => new ConfigurationRow(key, manifests.Select(m => values(m).TryGetValue(key, out var v) ? v : null).ToArray(), source))
            .Where(r => r.Values.Distinct(StringComparer.Ordinal).Count() > 1);

    private static bool IsPath(string value) => value.Contains('/') || value.Contains('\\');

    /// <summary>A setting's name without its engine prefix or dashes.</summary>
    private static string Short(string name) =>
        name.StartsWith("--", StringComparison.Ordinal) ? name[2..] : name.StartsWith("postgres.", StringComparison.Ordinal) ? name["postgres.".Length..] : name;

    private static string[] Unique(IReadOnlyList<string> names) =>
        names.Distinct(StringComparer.Ordinal).Count() == names.Count ? [.. names] : names.Select((n, i) => $"{n} ({(char)('A' + i % 26)})").ToArray();
}
