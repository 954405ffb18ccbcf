using System.Globalization;
using SqlWaitProbe.Analysis;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// The DMV module's report section: per phase, the server's own tables as the field reports read them — waits,
/// latches and spinlocks with their cost per event, and memory clerks per node.
/// </summary>
public static class ServerTablesSection
{
    /// <summary>Rows shown per table, heaviest first.</summary>
    public const int MaxRows = 10;

    /// <summary>One section per phase that has any of the tables.</summary>
    public static IEnumerable<EvidenceSection> Build(AnalysisResult analysis)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        foreach (var p in analysis.Phases)
        {
            var paragraphs = new List<string>();
            var tables = new List<EvidenceTable>();
            if (analysis.Manifest.Engine == "sqlserver" && p.Waits is { Count: > 0 } waits)
            {
                // The seeds read a wait's cost per event (RESERVED_MEMORY_ALLOCATION_EXT: the same count of waits, each
                // longer as sessions grow): wait ms ÷ waiting tasks. Idle waits are left out, as everywhere.
                foreach (var (scope, source) in new[] { ("session", "the workload's sessions, sys.dm_exec_session_wait_stats"), ("server", "server-wide, sys.dm_os_wait_stats") })
                {
                    var rows = waits.Where(w => w.Scope == scope && w.WaitingTasks > 0 && SqlServerWaitClasses.Of(w.Type) != Core.Waits.WaitClass.Idle)
                        .OrderByDescending(w => w.WaitMs).Take(MaxRows).ToArray();
                    if (rows.Length == 0)
                    {
                        continue;
                    }

                    paragraphs.Add($"Waits of {source} (`waits.csv`, scope {scope}), by wait time; average = wait ms ÷ waiting tasks; idle waits left out.");
                    tables.Add(new EvidenceTable([$"wait type ({scope})", "waiting tasks", "wait ms", "average ms per wait", "signal ms"],
                        [.. rows.Select(w => (IReadOnlyList<string>)[w.Type, F(w.WaitingTasks), F(w.WaitMs), (w.WaitMs / w.WaitingTasks).ToString("0.###", CultureInfo.InvariantCulture), F(w.SignalMs)])], [1, 2, 3, 4]));
                }
            }

            if (p.Latches is { Count: > 0 } latches)
            {
                paragraphs.Add("Latches (`dmv/latch_stats.csv`), by wait time; average = wait ms ÷ waiting requests.");
                tables.Add(new EvidenceTable(["latch class", "waiting requests", "wait ms", "average ms per wait"],
                    [.. latches.OrderByDescending(l => l.WaitMs).Take(MaxRows).Select(l => (IReadOnlyList<string>)
                        [l.Class, F(l.Waits), F(l.WaitMs), l.Waits > 0 ? (l.WaitMs / l.Waits).ToString("0.###", CultureInfo.InvariantCulture) : "n/a"])], [1, 2, 3]));
            }

            if (p.Spinlocks is { Count: > 0 } spinlocks)
            {
                paragraphs.Add("Spinlocks (`dmv/spinlock_stats.csv`), by spins; spins per collision = spins ÷ collisions, sleep per backoff = sleep ms ÷ backoffs.");
                tables.Add(new EvidenceTable(["spinlock", "collisions", "spins", "spins per collision", "backoffs", "sleep ms", "sleep ms per backoff"],
                    [.. spinlocks.OrderByDescending(s => s.Spins).Take(MaxRows).Select(s => (IReadOnlyList<string>)
                    [
                        s.Name, F(s.Collisions), F(s.Spins), s.Collisions > 0 ? F(s.Spins / s.Collisions) : "n/a", F(s.Backoffs), F(s.SleepMs),
                        s.Backoffs > 0 ? (s.SleepMs / s.Backoffs).ToString("0.###", CultureInfo.InvariantCulture) : "n/a",
                    ])], [1, 2, 3, 4, 5, 6]));
            }

            if (p.ServerTables?.Clerks is { Count: > 0 } clerks)
            {
                paragraphs.Add("Memory clerks per node (`dmv/memory_clerks.csv`, pages_kb), by size at the phase's end.");
                tables.Add(new EvidenceTable(["clerk type", "name", "node", "KB at start", "KB at end", "Δ KB"],
                    [.. clerks.OrderByDescending(c => c.EndKb).Take(MaxRows).Select(c => (IReadOnlyList<string>)
                        [c.Type, c.Name, c.Node ?? "all (summed)", F(c.StartKb), F(c.EndKb), Signed(c.EndKb - c.StartKb)])], [3, 4, 5]));
            }

            if (tables.Count > 0)
            {
                yield return new EvidenceSection("server-tables", $"Server tables in {p.Name}", paragraphs, tables);
            }
        }
    }
}
