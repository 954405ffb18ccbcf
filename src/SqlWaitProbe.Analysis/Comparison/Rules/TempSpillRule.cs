using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary>
/// <c>compare-temp-spill</c>: one capture writes temporary files (sorts and hashes spilled to disk) and the other
/// writes none or far fewer per execution: the usual answer of a memory setting's experiment (<c>work_mem</c>). The
/// figure is <see cref="PhaseSide.TempWrittenPerExecution"/>: the statements' own counters where captured, else
/// PostgreSQL's <c>pg_stat_database.temp_bytes</c>.
/// </summary>
public sealed class TempSpillRule : ComparisonRule
{
    /// <summary>Temp bytes per execution changing by this ratio either way (or from none) fires the rule.</summary>
    public const double Ratio = 2.0;

    /// <summary>Below this many bytes per execution, on both sides, the rule stays silent: noise of the server's own work.</summary>
    public const double Floor = 64 * 1024;

    /// <inheritdoc/>
    public override string Id => "compare-temp-spill";

    /// <inheritdoc/>
    protected override Finding? EvaluatePair(ComparedPair pair)
    {
        ArgumentNullException.ThrowIfNull(pair);
        if (pair.Before.TempWrittenPerExecution() is not { } before || pair.After.TempWrittenPerExecution() is not { } after)
        {
            return null;
        }

        var (more, less, moreSide, lessSide) = after.Bytes >= before.Bytes ? (after, before, pair.After, pair.Before) : (before, after, pair.Before, pair.After);
        if (more.Bytes < Floor || (less.Bytes > 0 && more.Bytes / less.Bytes < Ratio))
        {
            return null;
        }

        var against = less.Bytes < Floor ? "none to speak of" : $"{F(Mb(less.Bytes))} MB";
        List<string> evidence = [$"temporary files written per execution: {pair.Before.Label} {F(Mb(before.Bytes))} MB, {pair.After.Label} {F(Mb(after.Bytes))} MB [{pair.Before.Label}: {before.Source}; {pair.After.Label}: {after.Source}]"];
        if (pair.Before.TempFilesPerExecution() is { } filesBefore && pair.After.TempFilesPerExecution() is { } filesAfter)
        {
            evidence.Add($"temporary files created per execution: {pair.Before.Label} {F(filesBefore)}, {pair.After.Label} {F(filesAfter)} [pg_stat_database temp_files, series {PhaseSide.TempFilesSeries}, published at most once a second]");
        }

        return ForPair(Severities.Warning, pair,
            $"In {pair.Phase.Name}, {moreSide.Label} spills to temporary files: {F(Mb(more.Bytes))} MB per execution against {against} in {lessSide.Label}",
            evidence,
            $"give {moreSide.Label}'s sorts and hashes the memory {lessSide.Label} has (work_mem, hash_mem_multiplier), or read its plan for the node that spills");
    }

    /// <summary>Bytes as MB (2^20 bytes), the unit the finding and the throughput table print.</summary>
    public static double Mb(double bytes) => bytes / (1024 * 1024);
}
