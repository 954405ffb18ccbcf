using System.Globalization;
using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Wording and cell formats that the Markdown and HTML reports share.</summary>
internal static class ReportText
{
    /// <summary>Escapes text for HTML and XML content and attribute values.</summary>
    public static string Escape(string s) => s.Replace("&", "&amp;").Replace("<", "&lt;").Replace(">", "&gt;").Replace("\"", "&quot;");

    /// <summary>A share of growth, or a dash when the growth was too small to share out.</summary>
    public static string Share(double? share) => share is { } s ? Pct(s) : "—";

    /// <summary>Says why the growth table gives no shares, or null when it gives them.</summary>
    public static string? GrowthNote(AnalysisResult a)
    {
        if (a.Baseline is not { } b || a.Load is not { } load || a.Growth.Count == 0 || a.Growth.Any(g => g.ShareOfGrowth is not null))
        {
            return null;
        }

        var change = Growth.TotalChange(b, load) is { } c ? Pct(c).Insert(0, c > 0 ? "+" : "") : "unknown";
        return string.Create(CultureInfo.InvariantCulture,
            $"CPU per execution changed by {change} from baseline to {load.Phase}, under the {Pct(Growth.MaterialGrowth)} that counts as growth: no module grew materially, so no share of growth is given and the Δ column is within run-to-run noise.");
    }
}
