using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis.Statements;

/// <summary>Reads a phase's statement files (activity.csv, statements/*) into a <see cref="StatementInput"/>.</summary>
public static class StatementReader
{
    /// <summary>Plan files of each engine: PostgreSQL's JSON and SQL Server's showplan XML.</summary>
    public static readonly IReadOnlyList<string> PlanExtensions = ["json", "sqlplan"];

    /// <summary>The phase's statement files, or null when the bundle has none of them (older bundles, other engines).</summary>
    public static StatementInput? Read(CaptureBundle bundle, string phase)
    {
        var activity = ReadActivity(bundle, BundlePaths.Activity(phase));
        var stats = ReadStats(bundle, BundlePaths.StatementStats(phase));
        if (activity is null && stats is null)
        {
            return null;
        }

        var texts = ReadTexts(bundle, BundlePaths.StatementTexts(phase));
        var keys = new HashSet<string>(StringComparer.Ordinal);
        keys.UnionWith(activity?.Where(a => a.Statement is not null).Select(a => a.Statement!) ?? []);
        keys.UnionWith(stats?.Select(s => s.Key) ?? []);
        var plans = new Dictionary<string, PlanSummary>(StringComparer.Ordinal);
        foreach (var key in keys.Where(IsFileNamePart))
        {
            foreach (var extension in PlanExtensions)
            {
                var path = BundlePaths.StatementPlan(phase, key, extension);
                if (bundle.Has(path))
                {
                    plans[key] = extension == "json"
                        ? PostgresPlanReader.Read(path, bundle.ReadSmallText(path) ?? "")
                        : SqlServerPlanReader.Read(path, bundle.ReadSmallText(path) ?? "");
                }
            }
        }

        return new StatementInput { Activity = activity ?? [], ActivityCaptured = activity is not null, Texts = texts, Stats = stats, Plans = plans };
    }

    // A key from an untrusted bundle becomes part of a file name only when it is made of the characters keys have.
    private static bool IsFileNamePart(string key) =>
        key.Length is > 0 and <= 64 && !key.Contains("..", StringComparison.Ordinal) && key.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or ':' or '_');

    private static List<ActivitySample>? ReadActivity(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Activity.Ms, BundleColumns.Activity.Session, BundleColumns.Activity.Pid, BundleColumns.Activity.State,
            BundleColumns.Activity.Statement, BundleColumns.Activity.WaitType, BundleColumns.Activity.BlockedBy, BundleColumns.Activity.SampleMs);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<ActivitySample>();
        var strings = new Dictionary<string, string>(StringComparer.Ordinal);
        while (csv.Read())
        {
            var blocked = csv.Text(BundleColumns.Activity.BlockedBy);
            rows.Add(new ActivitySample(
                csv.Number(BundleColumns.Activity.Ms),
                csv.OptionalNumber(BundleColumns.Activity.Session) is { } s ? (int)s : null,
                Shared(strings, csv.Text(BundleColumns.Activity.Pid)),
                Shared(strings, csv.Text(BundleColumns.Activity.State)),
                Empty(Shared(strings, csv.Text(BundleColumns.Activity.Statement))),
                Empty(Shared(strings, csv.Text(BundleColumns.Activity.WaitType))),
                blocked.Length == 0 ? [] : blocked.Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(b => Shared(strings, b)).ToArray(),
                csv.Count(BundleColumns.Activity.SampleMs)));
        }

        return rows;
    }

    private static Dictionary<string, string> ReadTexts(CaptureBundle bundle, string relative)
    {
        var texts = new Dictionary<string, string>(StringComparer.Ordinal);
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.StatementTexts.Statement, BundleColumns.StatementTexts.Text);
        while (csv is not null && csv.Read())
        {
            texts.TryAdd(csv.Text(BundleColumns.StatementTexts.Statement), csv.Text(BundleColumns.StatementTexts.Text));
        }

        return texts;
    }

    private static List<StatementStats>? ReadStats(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Statements.Statement, BundleColumns.Statements.Executions, BundleColumns.Statements.ElapsedMs);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<StatementStats>();
        while (csv.Read())
        {
            double? Optional(string column) => csv.HasColumn(column) ? csv.OptionalNumber(column) : null;
            string? OptionalText(string column) => csv.HasColumn(column) ? Empty(csv.Text(column)) : null;
            rows.Add(new StatementStats
            {
                Key = csv.Text(BundleColumns.Statements.Statement),
                QueryId = OptionalText(BundleColumns.Statements.QueryId),
                PlanHash = OptionalText(BundleColumns.Statements.PlanHash),
                Text = OptionalText(BundleColumns.Statements.Text) ?? "",
                Executions = csv.Count(BundleColumns.Statements.Executions),
                ElapsedMs = csv.Count(BundleColumns.Statements.ElapsedMs),
                CpuMs = Optional(BundleColumns.Statements.CpuMs),
                Rows = Optional(BundleColumns.Statements.Rows) ?? 0,
                LogicalReads = Optional(BundleColumns.Statements.LogicalReads),
                PhysicalReads = Optional(BundleColumns.Statements.PhysicalReads),
                PageWrites = Optional(BundleColumns.Statements.PageWrites),
                SpillPages = Optional(BundleColumns.Statements.SpillPages),
                GrantRequestedKb = Optional(BundleColumns.Statements.GrantRequestedKb),
                GrantGrantedKb = Optional(BundleColumns.Statements.GrantGrantedKb),
                GrantUsedKb = Optional(BundleColumns.Statements.GrantUsedKb),
                GrantMaxKb = Optional(BundleColumns.Statements.GrantMaxKb),
                Dop = Optional(BundleColumns.Statements.Dop),
            });
        }

        return rows;
    }

    private static string Shared(Dictionary<string, string> strings, string value)
    {
        if (strings.TryGetValue(value, out var shared))
        {
            return shared;
        }

        strings[value] = value;
        return value;
    }

    private static string? Empty(string value) => value.Length == 0 ? null : value;
}
