using System.Globalization;

namespace SqlWaitProbe.Core.Text;

/// <summary>
/// How a figure reads in prose and tables: the finding rules (Analysis) and the reports (Reporting) print the same
/// figure through these, so a share reads "49%" in a finding's title and in the table beside it.
/// </summary>
public static class Figures
{
    /// <summary>A share as a percentage: one decimal under 10%, none above.</summary>
    public static string Pct(double share) => (share * 100).ToString(Math.Abs(share) < 0.1 ? "0.#" : "0", CultureInfo.InvariantCulture) + "%";

    /// <summary>A figure with two decimals under 10, one under 100, none above.</summary>
    public static string F(double v) => v.ToString(Math.Abs(v) >= 100 ? "0" : Math.Abs(v) >= 10 ? "0.#" : "0.##", CultureInfo.InvariantCulture);

    /// <summary>A change with its sign, e.g. <c>+1.68</c> or <c>-2</c>.</summary>
    public static string Signed(double v) => (v > 0 ? "+" : "") + F(v);

    /// <summary>A relative change with its sign, e.g. <c>+12%</c>.</summary>
    public static string SignedPct(double v) => (v > 0 ? "+" : "") + Pct(v);

    /// <summary>A count with its noun, singular for one: <c>1 execution</c>, <c>4 executions</c>.</summary>
    public static string Count(long n, string singular, string? plural = null) =>
        n.ToString(CultureInfo.InvariantCulture) + " " + (n == 1 ? singular : plural ?? singular + "s");
}
