using SqlWaitProbe.Analysis;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>The XE module's report section: per phase, the pages stream's events by memory clerk (its histogram target).</summary>
public static class ClerkHistogramSection
{
    /// <summary>Clerks shown per phase, most events first.</summary>
    public const int MaxRows = 10;

    /// <summary>One section per phase with a histogram.</summary>
    public static IEnumerable<EvidenceSection> Build(AnalysisResult analysis)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        foreach (var p in analysis.Phases)
        {
            if (p.ServerTables?.ClerkHistogram is not { Count: > 0 } histogram)
            {
                continue;
            }

            var total = histogram.Sum(h => h.Count);
            yield return new EvidenceSection("xe-clerk-histogram", $"XE pages stream by memory clerk in {p.Name}",
                ["Extended events, pages stream: events by memory clerk (`xe/clerk_histogram.csv`)."],
                [new EvidenceTable(["memory clerk", "events", "share"],
                    [.. histogram.OrderByDescending(h => h.Count).Take(MaxRows).Select(h => (IReadOnlyList<string>)[h.Clerk, F(h.Count), total > 0 ? Pct(h.Count / total) : "n/a"])], [1, 2])]);
        }
    }
}
