namespace SqlWaitProbe.Analysis.Statements;

/// <summary>What Data quality says about the statement figures of each phase.</summary>
public static class StatementNotes
{
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
            var cpu = p.Rows.Sum(r => r.CpuMs ?? 0);
            if (cpu > 0 && p.Rows.Any(r => r.CpuSource.StartsWith("session CPU", StringComparison.Ordinal)))
            {
                yield return $"phase {p.Phase}: statement CPU is the sessions' measured CPU ({Core.Text.Figures.F(cpu)} ms) split by samples within each {Core.Text.Figures.F(p.ReadingMs)} ms reading; the split of readings two statements shared bounds the statements' CPU by ± {Core.Text.Figures.F(error)} ms in all (each row's ±); {Core.Text.Figures.F(p.CpuOutsideMs)} CPU ms fell in readings with no statement sampled"
                    + (p.CpuInWaitsMs > 0 ? $"; {Core.Text.Figures.F(p.CpuInWaitsMs)} CPU ms ran while a wait was shown and is inside that wait, not in the statements' CPU" : "");
            }
        }
    }
}
