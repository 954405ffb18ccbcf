using System.Globalization;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// What reading a bundle may cost. Each limit has a default and an environment variable that raises it;
/// an exceeded limit is bad input (exit 2) whose one line names the limit and the variable.
/// </summary>
public sealed record BundleLimits
{
    /// <summary>Most entries a zipped bundle may hold.</summary>
    public long ZipEntries { get; init; } = 20_000;

    /// <summary>Largest expanded size of one zip entry, bytes.</summary>
    public long ZipEntryBytes { get; init; } = 2L << 30;

    /// <summary>Largest expanded size of a whole zip, bytes.</summary>
    public long ZipTotalBytes { get; init; } = 8L << 30;

    /// <summary>Highest expanded ÷ compressed ratio of a zip entry larger than 1 MiB (zeros deflate about 1000:1; bundle text 5–50:1).</summary>
    public long ZipRatio { get; init; } = 250;

    /// <summary>Longest line of CSV, folded-stack or perf text, characters.</summary>
    public long LineChars { get; init; } = 1L << 20;

    /// <summary>Largest managed heap analysis may grow to, bytes.</summary>
    public long AnalysisBytes { get; init; } = 6L << 30;

    /// <summary>The limits in force: the defaults, raised or lowered by the <c>PROBE_MAX_*</c> environment variables.</summary>
    public static BundleLimits Current => FromEnvironment();

    /// <summary>Reads the environment (a bad value is bad input naming the variable).</summary>
    public static BundleLimits FromEnvironment()
    {
        var d = new BundleLimits();
        return new BundleLimits
        {
            ZipEntries = Read(ZipEntriesVariable, d.ZipEntries, 1),
            ZipEntryBytes = Read(ZipEntryVariable, d.ZipEntryBytes >> 20, 1 << 20) ,
            ZipTotalBytes = Read(ZipTotalVariable, d.ZipTotalBytes >> 20, 1 << 20),
            ZipRatio = Read(ZipRatioVariable, d.ZipRatio, 1),
            LineChars = Read(LineVariable, d.LineChars >> 10, 1 << 10),
            AnalysisBytes = Read(AnalysisVariable, d.AnalysisBytes >> 20, 1 << 20),
        };
    }

    /// <summary>Variable raising <see cref="ZipEntries"/> (a count).</summary>
    public const string ZipEntriesVariable = "PROBE_MAX_ZIP_ENTRIES";
    /// <summary>Variable raising <see cref="ZipEntryBytes"/> (MiB).</summary>
    public const string ZipEntryVariable = "PROBE_MAX_ZIP_ENTRY_MIB";
    /// <summary>Variable raising <see cref="ZipTotalBytes"/> (MiB).</summary>
    public const string ZipTotalVariable = "PROBE_MAX_ZIP_TOTAL_MIB";
    /// <summary>Variable raising <see cref="ZipRatio"/> (a ratio).</summary>
    public const string ZipRatioVariable = "PROBE_MAX_ZIP_RATIO";
    /// <summary>Variable raising <see cref="LineChars"/> (KiB of characters).</summary>
    public const string LineVariable = "PROBE_MAX_LINE_KIB";
    /// <summary>Variable raising <see cref="AnalysisBytes"/> (MiB).</summary>
    public const string AnalysisVariable = "PROBE_MAX_ANALYSIS_MIB";

    /// <summary>The error for an exceeded limit: which limit, its value, and how to raise it.</summary>
    public static BadInputException Exceeded(string what, string limit, string variable, string? file = null, long? line = null) =>
        new($"{what}: over the limit of {limit}; if the input is trusted, raise it with the environment variable {variable}", file, line);

    private static long Read(string variable, long defaultUnits, long unitBytes)
    {
        var text = Environment.GetEnvironmentVariable(variable);
        if (string.IsNullOrWhiteSpace(text))
        {
            return defaultUnits * unitBytes;
        }

        if (!long.TryParse(text.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var units) || units <= 0 || units > long.MaxValue / unitBytes)
        {
            throw new BadInputException($"environment variable {variable}='{BundleNames.Shorten(text)}' is not a positive whole number");
        }

        return units * unitBytes;
    }
}
