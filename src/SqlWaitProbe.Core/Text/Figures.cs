using System.Globalization;

namespace SqlWaitProbe.Core.Text;

/// <summary>
/// How a figure reads in prose and tables: the finding rules (Analysis) and the reports (Reporting) print the same
/// figure through these, so a share reads "49%" in a finding's title and in the table beside it.
/// </summary>
public static class Figures
{
    /// <summary>A share as a percentage: one decimal under 10%, none above.</summary>
    public static string Pct(double share) => NoNegativeZero((share * 100).ToString(Math.Abs(share) < 0.1 ? "0.#" : "0", CultureInfo.InvariantCulture)) + "%";

    /// <summary>A figure with two decimals under 10, one under 100, none above.</summary>
    public static string F(double v) => NoNegativeZero(v.ToString(Math.Abs(v) >= 100 ? "0" : Math.Abs(v) >= 10 ? "0.#" : "0.##", CultureInfo.InvariantCulture));

    /// <summary>A change with its sign, e.g. <c>+1.68</c> or <c>-2</c>.</summary>
    public static string Signed(double v) => (v > 0 ? "+" : "") + F(v);

    /// <summary>A relative change with its sign, e.g. <c>+12%</c>.</summary>
    public static string SignedPct(double v) => (v > 0 ? "+" : "") + Pct(v);

    /// <summary>
    /// A difference in words, its sign as "more" or "less": <c>112 ms less</c>, <c>9.67 ms more</c>, <c>0 ms more</c> for
    /// none; a finding's prose reads "takes 112 ms less per execution" where a bare "-112 ms" would read as a time.
    /// </summary>
    public static string More(double v, string unit) =>
        F(v) == "0" ? $"0 {unit} more" : $"{F(Math.Abs(v))} {unit} {(v > 0 ? "more" : "less")}";

    /// <summary>A relative difference in words: <c>28% less</c>, <c>50% more</c>.</summary>
    public static string MorePct(double v) =>
        Pct(v) == "0%" ? "the same" : $"{Pct(Math.Abs(v))} {(v > 0 ? "more" : "less")}";

    /// <summary>A count with its noun, singular for one: <c>1 execution</c>, <c>4 executions</c>.</summary>
    public static string Count(long n, string singular, string? plural = null) =>
        n.ToString(CultureInfo.InvariantCulture) + " " + (n == 1 ? singular : plural ?? singular + "s");

    // A figure that rounds to nothing reads 0, not -0.
    private static string NoNegativeZero(string text) => text == "-0" ? "0" : text;
}
