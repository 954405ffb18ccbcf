using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Statements;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>A statement of the phase with the texts it is known by (a session's text, pg_stat_statements' normalised one).</summary>
/// <param name="Key">Its statement key.</param>
/// <param name="Texts">Its texts.</param>
public sealed record KnownStatement(string Key, IReadOnlyList<string> Texts);

/// <summary>Which statement each logged plan belongs to, and the one plan kept per statement.</summary>
public sealed record AutoExplainMatch
{
    /// <summary>The plan kept per statement key: one a watched session logged before another's, then the slowest.</summary>
    public required IReadOnlyDictionary<string, AutoExplainEntry> Chosen { get; init; }

    /// <summary>JSON plans that belong to one of the phase's statements.</summary>
    public int Matched { get; init; }

    /// <summary>JSON plans of statements the watched sessions were not seen running.</summary>
    public int Other { get; init; }

    /// <summary>Plans of the probe's own monitoring statements (marked <see cref="PgMonitorSql.Mark"/>).</summary>
    public int Own { get; init; }

    /// <summary>Plans logged in another format than JSON, by format (text, xml, yaml, unreadable).</summary>
    public required IReadOnlyDictionary<string, int> NotJson { get; init; }

    /// <summary>JSON plans without run-time figures (<c>auto_explain.log_analyze</c> off).</summary>
    public int WithoutActuals { get; init; }
}

/// <summary>
/// Matches auto_explain's plans to the phase's statements: by query id when the log shows one (csvlog, jsonlog, or
/// the plan itself from PostgreSQL 16 on), else by text — the key of the text itself (statements keyed by text), the
/// text a session showed (whole, or its start when <c>track_activity_query_size</c> cut it), or the same text with its
/// constants and parameters set aside, which matches a logged <c>WHERE id = 42</c> to pg_stat_statements'
/// <c>WHERE id = $1</c>. A text that fits several statements is left unmatched rather than guessed.
/// </summary>
public static partial class AutoExplainMatcher
{
    /// <summary>Matches <paramref name="entries"/> to <paramref name="statements"/>; <paramref name="watchedPids"/> are the watched sessions' backends.</summary>
    public static AutoExplainMatch Match(IReadOnlyList<AutoExplainEntry> entries, IReadOnlyList<KnownStatement> statements, IReadOnlySet<int> watchedPids)
    {
        ArgumentNullException.ThrowIfNull(entries);
        ArgumentNullException.ThrowIfNull(statements);
        var keys = statements.Select(s => s.Key).ToHashSet(StringComparer.Ordinal);
        var byFolded = Index(statements, StatementKey.Fold);
        var byShape = Index(statements, Shape);
        var cut = statements.SelectMany(s => s.Texts.Where(t => t.Length >= CutLength).Select(t => (s.Key, Folded: StatementKey.Fold(t)))).ToArray();
        var chosen = new Dictionary<string, AutoExplainEntry>(StringComparer.Ordinal);
        var notJson = new Dictionary<string, int>(StringComparer.Ordinal);
        int matched = 0, other = 0, own = 0, withoutActuals = 0;
        foreach (var entry in entries)
        {
            if (entry.QueryText is { } t && t.TrimStart().StartsWith(PgMonitorSql.Mark.Trim(), StringComparison.Ordinal))
            {
                own++;
                continue;
            }

            if (entry.PlanJson is null)
            {
                notJson[entry.Format] = notJson.GetValueOrDefault(entry.Format) + 1;
                continue;
            }

            if (KeyOf(entry, keys, byFolded, byShape, cut) is not { } key)
            {
                other++;
                continue;
            }

            matched++;
            withoutActuals += entry.PlanJson.Contains("\"Actual Rows\"", StringComparison.Ordinal) ? 0 : 1;
            if (!chosen.TryGetValue(key, out var kept) || Better(entry, kept, watchedPids))
            {
                chosen[key] = entry;
            }
        }

        return new AutoExplainMatch { Chosen = chosen, Matched = matched, Other = other, Own = own, NotJson = notJson, WithoutActuals = withoutActuals };
    }

    /// <summary>A text this long may have been cut by the server's <c>track_activity_query_size</c> (1024 bytes by default).</summary>
    public const int CutLength = 1000;

    /// <summary>
    /// The text with its constants, parameters and white space set aside: string and number literals and <c>$n</c>
    /// become <c>?</c>, so a statement as a session sent it and as pg_stat_statements normalised it read the same.
    /// </summary>
    public static string Shape(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var shape = Literal().Replace(text, "?");
        shape = Space().Replace(shape, "").TrimEnd(';');

        // pg_stat_statements folds a negative constant's sign into it.
        return NegativeConstant().Replace(shape, "$1?");
    }

    private static string? KeyOf(AutoExplainEntry entry, HashSet<string> keys, Dictionary<string, string?> byFolded, Dictionary<string, string?> byShape, (string Key, string Folded)[] cut)
    {
        if (StatementKey.FromQueryId(entry.QueryId) is { } id && keys.Contains(id))
        {
            return id;
        }

        if (entry.QueryText is not { } text)
        {
            return null;
        }

        if (StatementKey.FromText(text) is { } textKey && keys.Contains(textKey))
        {
            return textKey;
        }

        var folded = StatementKey.Fold(text);
        if (byFolded.TryGetValue(folded, out var byText))
        {
            return byText;
        }

        var prefixed = cut.Where(c => folded.StartsWith(c.Folded, StringComparison.Ordinal)).Select(c => c.Key).Distinct(StringComparer.Ordinal).ToArray();
        if (prefixed.Length > 0)
        {
            return prefixed.Length == 1 ? prefixed[0] : null;
        }

        return byShape.GetValueOrDefault(Shape(text));
    }

    // Text → key; null marks a text two statements share, which then matches neither.
    private static Dictionary<string, string?> Index(IReadOnlyList<KnownStatement> statements, Func<string, string> form)
    {
        var index = new Dictionary<string, string?>(StringComparer.Ordinal);
        foreach (var s in statements)
        {
            foreach (var text in s.Texts.Select(form).Where(t => t.Length > 0).Distinct(StringComparer.Ordinal))
            {
                index[text] = index.TryGetValue(text, out var known) && known != s.Key ? null : s.Key;
            }
        }

        return index;
    }

    private static bool Better(AutoExplainEntry candidate, AutoExplainEntry kept, IReadOnlySet<int> watchedPids)
    {
        int Rank(AutoExplainEntry e) => e.Pid is { } pid ? (watchedPids.Contains(pid) ? 2 : 0) : 1;
        var (c, k) = (Rank(candidate), Rank(kept));
        return c != k ? c > k : candidate.DurationMs > kept.DurationMs;
    }

    // A quoted string ('' inside), a parameter, or a number not part of a name.
    [GeneratedRegex(@"'(?:[^']|'')*'|\$[0-9]+|(?<![A-Za-z0-9_$.])[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")]
    private static partial Regex Literal();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Space();

    [GeneratedRegex(@"(^|[=(,<>+*/-])-\?")]
    private static partial Regex NegativeConstant();
}
