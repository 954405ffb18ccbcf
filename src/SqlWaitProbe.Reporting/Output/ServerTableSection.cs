using System.Globalization;
using SqlWaitProbe.Analysis;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// The server's own tables per phase, as the field reports read them (SQL Server): latches and spinlocks with their cost
/// per event, memory clerks per node, and the XE page stream's events by clerk.
/// </summary>
public static class ServerTableSection
{
    /// <summary>Rows shown per table, heaviest first.</summary>
    public const int MaxRows = 10;

    /// <summary>One section per phase that has any of the tables.</summary>
    public static IEnumerable<ReportSection> Build(AnalysisResult a)
    {
        foreach (var p in a.Phases)
        {
            var blocks = new List<ReportBlock>();
            if (p.Latches is { Count: > 0 } latches)
            {
                blocks.Add(ReportBlock.Paragraph("Latches (dmv/latch_stats.csv), by wait time; average = wait ms ÷ waiting requests."));
                blocks.Add(ReportBlock.Table(["latch class", "waiting requests", "wait ms", "average ms per wait"],
                    latches.OrderByDescending(l => l.WaitMs).Take(MaxRows).Select(l => (IReadOnlyList<string>)
                        [l.Class, F(l.Waits), F(l.WaitMs), l.Waits > 0 ? (l.WaitMs / l.Waits).ToString("0.###", CultureInfo.InvariantCulture) : "n/a"]), 1, 2, 3));
            }

            if (p.Spinlocks is { Count: > 0 } spinlocks)
            {
                blocks.Add(ReportBlock.Paragraph("Spinlocks (dmv/spinlock_stats.csv), by spins; spins per collision = spins ÷ collisions, sleep per backoff = sleep ms ÷ backoffs."));
                blocks.Add(ReportBlock.Table(["spinlock", "collisions", "spins", "spins per collision", "backoffs", "sleep ms", "sleep ms per backoff"],
                    spinlocks.OrderByDescending(s => s.Spins).Take(MaxRows).Select(s => (IReadOnlyList<string>)
                    [
                        s.Name, F(s.Collisions), F(s.Spins), s.Collisions > 0 ? F(s.Spins / s.Collisions) : "n/a", F(s.Backoffs), F(s.SleepMs),
                        s.Backoffs > 0 ? (s.SleepMs / s.Backoffs).ToString("0.###", CultureInfo.InvariantCulture) : "n/a",
                    ]), 1, 2, 3, 4, 5, 6));
            }

            if (p.ServerTables?.Clerks is { Count: > 0 } clerks)
            {
                blocks.Add(ReportBlock.Paragraph("Memory clerks per node (dmv/memory_clerks.csv, pages_kb), by size at the phase's end."));
                blocks.Add(ReportBlock.Table(["clerk type", "name", "node", "KB at start", "KB at end", "Δ KB"],
                    clerks.OrderByDescending(c => c.EndKb).Take(MaxRows).Select(c => (IReadOnlyList<string>)
                        [c.Type, c.Name, c.Node ?? "all (summed)", F(c.StartKb), F(c.EndKb), Signed(c.EndKb - c.StartKb)]), 3, 4, 5));
            }

            if (p.ServerTables?.ClerkHistogram is { Count: > 0 } histogram)
            {
                var total = histogram.Sum(h => h.Count);
                blocks.Add(ReportBlock.Paragraph("Extended events, pages stream: events by memory clerk (xe/clerk_histogram.csv)."));
                blocks.Add(ReportBlock.Table(["memory clerk", "events", "share"],
                    histogram.OrderByDescending(h => h.Count).Take(MaxRows).Select(h => (IReadOnlyList<string>)
                        [h.Clerk, F(h.Count), total > 0 ? Pct(h.Count / total) : "n/a"]), 1, 2));
            }

            if (blocks.Count > 0)
            {
                yield return new ReportSection("server-tables", $"Server tables in {p.Name}", 2, blocks);
            }
        }
    }
}
