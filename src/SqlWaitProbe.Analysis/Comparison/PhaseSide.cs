using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Analysis.Ledger;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>One capture's phase in a comparison.</summary>
/// <param name="Label">The capture's label.</param>
/// <param name="Ledger">The phase's ledger.</param>
/// <param name="Data">The phase's data.</param>
public sealed record PhaseSide(string Label, PhaseLedger Ledger, PhaseData Data)
{
    /// <summary>Milliseconds per execution of <paramref name="seconds"/> spent over the phase (0 without executions).</summary>
    public double PerExecutionMs(double seconds) => Ledger.CountedExecutions > 0 ? seconds * 1000 / Ledger.CountedExecutions : 0;

    /// <summary>The size of a page the statement counters count spills in: PostgreSQL's block and SQL Server's page, 8 kB.</summary>
    public const double SpillPageBytes = 8192;

    /// <summary>The per-second series of temporary bytes written, as the database-counter collector names it.</summary>
    public const string TempBytesSeries = "db.temp_bytes_per_sec";

    /// <summary>The per-second series of temporary files created.</summary>
    public const string TempFilesSeries = "db.temp_files_per_sec";

    /// <summary>
    /// Bytes written to temporary files per execution, and where the figure comes from; null when neither source was
    /// captured. The statements' own counters (PostgreSQL <c>pg_stat_statements.temp_blks_written</c>, SQL Server
    /// <c>total_spills</c>) come first: they grow as each statement ends, so the phase's figure is exact.
    /// <c>pg_stat_database.temp_bytes</c> is the fallback: a backend publishes it at most once a second, so a phase
    /// gets some of its spills late or not at all (one run of a 3 s phase read 9.3, the next 18.6 MB per execution).
    /// </summary>
    public (double Bytes, string Source)? TempWrittenPerExecution()
    {
        if (Data.Statements?.Stats is { } stats && stats.Any(s => s.SpillPages is not null))
        {
            return (PerExecution(stats.Sum(s => s.SpillPages ?? 0) * SpillPageBytes),
                "statements/statements.csv spill_pages × 8 kB ÷ executions (pg_stat_statements temp_blks_written, SQL Server total_spills)");
        }

        return Data.Series is { } series && series.Series.ContainsKey(TempBytesSeries)
            ? (PerExecution(series.Get(TempBytesSeries).Values.Sum()), $"pg_stat_database temp_bytes ÷ executions (series {TempBytesSeries}, published at most once a second)")
            : null;
    }

    /// <summary>Temporary files created per execution (<c>pg_stat_database.temp_files</c>), or null without the series.</summary>
    public double? TempFilesPerExecution() =>
        Data.Series is { } series && series.Series.ContainsKey(TempFilesSeries) ? PerExecution(series.Get(TempFilesSeries).Values.Sum()) : null;

    /// <summary>A count per execution (0 without executions).</summary>
    public double PerExecution(double count) => Ledger.CountedExecutions > 0 ? count / Ledger.CountedExecutions : 0;
}
