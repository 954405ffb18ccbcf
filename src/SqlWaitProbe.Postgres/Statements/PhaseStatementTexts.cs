using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// The statements the watched sessions ran in a phase, as the phase's files hold them once its collectors have
/// stopped: their keys and backends from <c>activity.csv</c>, the text a session showed (<c>statements/texts.csv</c>)
/// and pg_stat_statements' normalised text (<c>statements/statements.csv</c>, when captured).
/// </summary>
/// <param name="Known">Each watched statement with its texts.</param>
/// <param name="WatchedPids">The watched sessions' backends.</param>
public sealed record PhaseStatementTexts(IReadOnlyList<KnownStatement> Known, IReadOnlySet<int> WatchedPids)
{
    /// <summary>Reads the phase's files; a file that is missing adds nothing.</summary>
    public static PhaseStatementTexts Read(PhaseContext phase)
    {
        ArgumentNullException.ThrowIfNull(phase);
        var keys = new HashSet<string>(StringComparer.Ordinal);
        var pids = new HashSet<int>();
        foreach (var row in Rows(phase.PathFor(BundlePaths.Activity(phase.Name))))
        {
            if (row[BundleColumns.Activity.Session].Length == 0)
            {
                continue;
            }

            if (int.TryParse(row[BundleColumns.Activity.Pid], NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
            {
                pids.Add(pid);
            }

            if (row[BundleColumns.Activity.Statement] is { Length: > 0 } key)
            {
                keys.Add(key);
            }
        }

        var texts = keys.ToDictionary(k => k, _ => new List<string>(), StringComparer.Ordinal);
        foreach (var row in Rows(phase.PathFor(BundlePaths.StatementTexts(phase.Name))))
        {
            texts.GetValueOrDefault(row[BundleColumns.StatementTexts.Statement])?.Add(row[BundleColumns.StatementTexts.Text]);
        }

        foreach (var row in Rows(phase.PathFor(BundlePaths.StatementStats(phase.Name))))
        {
            texts.GetValueOrDefault(row[BundleColumns.Statements.Statement])?.Add(row[BundleColumns.Statements.Text]);
        }

        return new PhaseStatementTexts([.. texts.OrderBy(kv => kv.Key, StringComparer.Ordinal).Select(kv => new KnownStatement(kv.Key, kv.Value))], pids);
    }

    private static IEnumerable<IReadOnlyDictionary<string, string>> Rows(string path)
    {
        if (!File.Exists(path))
        {
            yield break;
        }

        using var reader = new StreamReader(path);
        foreach (var row in Csv.ReadRows(reader))
        {
            yield return row;
        }
    }
}
