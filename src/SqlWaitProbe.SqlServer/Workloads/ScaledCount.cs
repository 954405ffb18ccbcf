using System.Globalization;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>Row and table counts scaled from the sizes the field reports used.</summary>
public static class ScaledCount
{
    /// <summary>The count at <paramref name="scale"/>, never below <paramref name="minimum"/>.</summary>
    public static long Of(long fullSize, double scale, long minimum = 1000)
    {
        Core.Options.WorkloadScale.Check(scale);

        return Math.Max(minimum, (long)Math.Round(fullSize * scale, MidpointRounding.AwayFromZero));
    }

    /// <summary>A whole number with invariant thousands separators, for summaries (11,000,000).</summary>
    public static string Grouped(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>
    /// The grouped number with the article it is read with: "an 11,000,000", "an 8,000", "a 10,000,000". The article
    /// follows the spoken first group: eight, eleven, eighteen, eighty… and eight hundred… start with a vowel sound.
    /// </summary>
    public static string WithArticle(long value)
    {
        var grouped = Grouped(value);
        var first = long.Parse(grouped.Split(',')[0], CultureInfo.InvariantCulture);
        var vowel = first is 8 or 11 or 18 or (>= 80 and <= 89) or (>= 800 and <= 899);
        return (vowel ? "an " : "a ") + grouped;
    }

    /// <summary>The invariant text of a whole number, for substitution into T-SQL.</summary>
    public static string Text(long value) => value.ToString(CultureInfo.InvariantCulture);
}
