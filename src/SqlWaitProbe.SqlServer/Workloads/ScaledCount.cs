using System.Globalization;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>Row and table counts scaled from the sizes the field reports used.</summary>
public static class ScaledCount
{
    /// <summary>The count at <paramref name="scale"/>, never below <paramref name="minimum"/>.</summary>
    public static long Of(long fullSize, double scale, long minimum = 1000)
    {
        if (double.IsNaN(scale) || scale <= 0)
        {
            throw new Core.Errors.BadInputException($"--scale must be a positive number, not {scale.ToString(CultureInfo.InvariantCulture)}");
        }

        return Math.Max(minimum, (long)Math.Round(fullSize * scale, MidpointRounding.AwayFromZero));
    }

    /// <summary>A whole number with invariant thousands separators, for summaries (11,000,000).</summary>
    public static string Grouped(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>The invariant text of a whole number, for substitution into T-SQL.</summary>
    public static string Text(long value) => value.ToString(CultureInfo.InvariantCulture);
}
