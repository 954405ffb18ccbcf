using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Statements;

/// <summary>What Data quality says about the statement figures of each phase.</summary>
public static class StatementNotes
{
    /// <summary>
    /// Samples standing for more than this, ms, mean the sampler fell behind: well beyond the 100 ms CPU readings, so
    /// readings between two polls hold no sample of their own.
    /// </summary>
    public const double LatePollMs = 150;

    /// <summary>One line per fact a reader of the statement table must know.</summary>
    public static IEnumerable<string> Describe(IReadOnlyList<PhaseStatements> phases)
    {
        foreach (var p in phases)
        {
            if (p.KeyedByText)
            {
                yield return $"phase {p.Phase}: statements are keyed by their text as the sessions showed it (the server computed no query id: compute_query_id is off or the server is older than PostgreSQL 14), so executions of one statement with different constants are different rows";
            }

            if (!p.StatsCaptured && p.Rows.Count > 0)
            {
                yield return $"phase {p.Phase}: no per-statement counters (PostgreSQL: pg_stat_statements not loaded, or not created in the database; SQL Server: sys.dm_exec_query_stats could not be read, see the sql-statements collector): executions, elapsed time, rows, blocks and spills per statement are not known; session time, waits and CPU come from the session samples";
            }

            var error = p.Rows.Sum(r => r.CpuErrorMs);
            var cpu = p.Rows.Where(r => r.CpuSource.StartsWith("session CPU", StringComparison.Ordinal)).Sum(r => r.CpuMs ?? 0);
            if (cpu > 0)
            {
                yield return $"phase {p.Phase}: statement CPU is the sessions' measured CPU split by samples within each {F(p.ReadingMs)} ms reading: the statements hold {F(cpu)} of the sessions' {F(cpu + p.CpuOutsideMs + p.CpuInWaitsMs)} CPU ms ({Pct(cpu / (cpu + p.CpuOutsideMs + p.CpuInWaitsMs))}); {F(p.CpuOutsideMs)} CPU ms fell in readings no sample of a statement stands for (between statements, connecting); the split of readings two statements shared bounds the statements' CPU by ± {F(error)} ms in all (each row's ±)"
                    + (p.CpuInWaitsMs > 0 ? $"; {F(p.CpuInWaitsMs)} CPU ms ran while a wait was shown and is inside that wait, not in the statements' CPU" : "");
            }

            if (p.Samples > 0 && p.MeanSampleMs > LatePollMs)
            {
                yield return $"phase {p.Phase}: the session sampler's polls came late: each of its {p.Samples} samples of a session in a statement stands for {F(p.MeanSampleMs)} ms on average (PostgreSQL asks every 10 ms, SQL Server every 100 ms), "
                    + "because the probe's poll and the server's monitoring session wait for a CPU like any process when the sessions keep the CPUs busy (the phase's run queue); each sample stands for its share of the time between polls, "
                    + "so session time and CPU are still split by statement, but a statement that ran only between two polls is missed and one that began or ended between them is counted to the poll's side";
            }
        }
    }
}
