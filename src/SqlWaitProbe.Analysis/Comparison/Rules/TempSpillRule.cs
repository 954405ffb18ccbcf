using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary>
/// <c>compare-temp-spill</c>: one capture writes temporary files (sorts and hashes spilled to disk, read from the
/// database's counters, PostgreSQL's <c>pg_stat_database.temp_bytes</c>) and the other writes none or far fewer per
/// execution: the usual answer of a memory setting's experiment (<c>work_mem</c>).
/// </summary>
public sealed class TempSpillRule : ComparisonRule
{
    /// <summary>The per-second series of temporary bytes written, as the database-counter collector names it.</summary>
    public const string BytesSeries = "db.temp_bytes_per_sec";

    /// <summary>The per-second series of temporary files created.</summary>
    public const string FilesSeries = "db.temp_files_per_sec";

    /// <summary>Temp bytes per execution changing by this ratio either way (or from none) fires the rule.</summary>
    public const double Ratio = 2.0;

    /// <summary>Below this many bytes per execution, on both sides, the rule stays silent: noise of the server's own work.</summary>
    public const double Floor = 64 * 1024;

    /// <inheritdoc/>
    public override string Id => "compare-temp-spill";

    /// <summary>
    /// Temporary bytes and files per execution of <paramref name="side"/>: the per-second rates summed over the phase's
    /// window (one reading a second), divided by its counted executions; null without the series.
    /// </summary>
    public static (double Bytes, double Files)? PerExecution(PhaseSide side)
    {
        ArgumentNullException.ThrowIfNull(side);
        if (side.Data.Series is not { } series || !series.Series.ContainsKey(BytesSeries))
        {
            return null;
        }

        return (side.PerExecution(series.Get(BytesSeries).Values.Sum()), side.PerExecution(series.Get(FilesSeries).Values.Sum()));
    }

    /// <inheritdoc/>
    protected override Finding? EvaluatePair(ComparedPair pair)
    {
        ArgumentNullException.ThrowIfNull(pair);
        if (PerExecution(pair.Before) is not { } before || PerExecution(pair.After) is not { } after)
        {
            return null;
        }

        var (more, less, moreSide, lessSide) = after.Bytes >= before.Bytes ? (after, before, pair.After, pair.Before) : (before, after, pair.Before, pair.After);
        if (more.Bytes < Floor || (less.Bytes > 0 && more.Bytes / less.Bytes < Ratio))
        {
            return null;
        }

        var mb = more.Bytes / (1024 * 1024);
        var against = less.Bytes < Floor ? "none to speak of" : $"{F(less.Bytes / (1024 * 1024))} MB";
        return ForPair(Severities.Warning, pair,
            $"In {pair.Phase.Name}, {moreSide.Label} spills to temporary files: {F(mb)} MB per execution against {against} in {lessSide.Label}",
            [$"temp bytes per execution: {pair.Before.Label} {F(before.Bytes / (1024 * 1024))} MB, {pair.After.Label} {F(after.Bytes / (1024 * 1024))} MB [pg_stat_database temp_bytes, series {BytesSeries}]",
             $"temp files per execution: {pair.Before.Label} {F(before.Files)}, {pair.After.Label} {F(after.Files)} [temp_files]"],
            $"give {moreSide.Label}'s sorts and hashes the memory {lessSide.Label} has (work_mem, hash_mem_multiplier), or read its plan for the node that spills");
    }
}
