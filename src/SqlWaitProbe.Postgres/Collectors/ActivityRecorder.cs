using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Statements;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Postgres.Collectors;

/// <summary>
/// The polls of <c>pg_stat_activity</c> kept for <c>activity.csv</c> and <c>statements/texts.csv</c>, with each row's
/// statement key resolved once the phase is over.
/// </summary>
internal sealed class ActivityRecorder
{
    private readonly List<Row> _rows = [];
    private readonly Dictionary<string, string> _texts = new(StringComparer.Ordinal);
    private Dictionary<string, string?>? _idOfText;

    /// <summary>One backend in one poll.</summary>
    /// <param name="Utc">When the poll ran.</param>
    /// <param name="Pid">The backend's pid.</param>
    /// <param name="Session">The driver session it serves; null for a blocker outside the watched ones.</param>
    /// <param name="State"><c>pg_stat_activity.state</c>.</param>
    /// <param name="WaitType"><c>Class:Event</c>, null on a CPU.</param>
    /// <param name="QueryId"><c>query_id</c>, null when the server computed none (yet).</param>
    /// <param name="Text">The statement's text (the running one, or the last one when idle in a transaction).</param>
    /// <param name="BlockedBy">The pids <c>pg_blocking_pids</c> named for a lock wait.</param>
    public sealed record Row(DateTime Utc, int Pid, int? Session, string State, string? WaitType, long? QueryId, string? Text, int[]? BlockedBy);

    private readonly List<DateTime> _polls = [];

    /// <summary>The mean interval between polls, ms: what a sample stands for when its poll has no neighbour.</summary>
    public double SampleMs { get; set; } = 10;

    /// <summary>Records that a poll ran at <paramref name="utc"/> (with rows or none).</summary>
    public void Polled(DateTime utc) => _polls.Add(utc);

    /// <summary>
    /// The time a sample of the poll at <paramref name="utc"/> stands for: half the way to the poll before and half
    /// the way to the one after. Polls run late while the machine is busy — most of all while the sessions
    /// themselves keep the CPUs busy — so a fixed weight would under-count busy statements against sleeping ones.
    /// </summary>
    public double WeightOf(DateTime utc)
    {
        var i = _polls.BinarySearch(utc);
        if (i < 0 || _polls.Count < 2)
        {
            return SampleMs;
        }

        var before = i > 0 ? (_polls[i] - _polls[i - 1]).TotalMilliseconds : (_polls[i + 1] - _polls[i]).TotalMilliseconds;
        var after = i < _polls.Count - 1 ? (_polls[i + 1] - _polls[i]).TotalMilliseconds : before;
        return (before + after) / 2;
    }

    /// <summary>Every row so far.</summary>
    public IReadOnlyList<Row> Rows => _rows;

    /// <summary>Keeps a row; its text is shared with earlier rows of the same text.</summary>
    public void Add(Row row)
    {
        if (row.Text is { } text)
        {
            if (_texts.TryGetValue(text, out var shared))
            {
                row = row with { Text = shared };
            }
            else
            {
                _texts[text] = text;
            }
        }

        _idOfText = null;
        _rows.Add(row);
    }

    /// <summary>
    /// The row's statement key. A backend reports its <c>query_id</c> only once the statement is parsed, so a row
    /// without one takes the id other rows of the same text had; a text seen with several ids (a multi-statement
    /// string) or with none keeps a key of its own text.
    /// </summary>
    public string? KeyOf(Row row)
    {
        if (StatementKey.FromQueryId(row.QueryId) is { } key)
        {
            return key;
        }

        if (row.Text is null)
        {
            return null;
        }

        _idOfText ??= IdsOfTexts();
        return _idOfText.TryGetValue(row.Text, out var id) && id is not null ? id : StatementKey.FromText(row.Text);
    }

    /// <summary>Writes <c>activity.csv</c> and <c>statements/texts.csv</c>.</summary>
    public void Write(PhaseContext phase)
    {
        var texts = new Dictionary<string, (long? QueryId, string Text)>(StringComparer.Ordinal);
        Core.Files.AtomicFile.WriteText(phase.PathFor(BundlePaths.Activity(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.Activity.All) + "\n");
            foreach (var row in _rows)
            {
                var sampleMs = Csv.Number(WeightOf(row.Utc));
                var key = KeyOf(row);
                if (key is not null && row.Text is not null && !texts.ContainsKey(key))
                {
                    texts[key] = (StatementKey.IsTextKey(key) ? null : long.Parse(key, CultureInfo.InvariantCulture), row.Text);
                }

                writer.Write(Csv.Line(
                    Csv.Number((row.Utc - phase.StartUtc).TotalMilliseconds),
                    row.Session?.ToString(CultureInfo.InvariantCulture),
                    row.Pid.ToString(CultureInfo.InvariantCulture),
                    row.State,
                    key,
                    row.WaitType,
                    row.BlockedBy is { Length: > 0 } b ? string.Join(' ', b.Select(p => p.ToString(CultureInfo.InvariantCulture))) : null,
                    sampleMs) + "\n");
            }
        });
        Core.Files.AtomicFile.WriteText(phase.PathFor(BundlePaths.StatementTexts(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.StatementTexts.All) + "\n");
            foreach (var (key, (queryId, text)) in texts.OrderBy(kv => kv.Key, StringComparer.Ordinal))
            {
                // One row per line, as statements.csv: the bundle's CSV readers read line by line, and most
                // applications' statements span several lines.
                writer.Write(Csv.Line(key, queryId?.ToString(CultureInfo.InvariantCulture), text.ReplaceLineEndings(" ")) + "\n");
            }
        });
    }

    private Dictionary<string, string?> IdsOfTexts()
    {
        var ids = new Dictionary<string, string?>(StringComparer.Ordinal);
        foreach (var row in _rows)
        {
            if (row.Text is null || StatementKey.FromQueryId(row.QueryId) is not { } key)
            {
                continue;
            }

            // null marks a text seen with two ids: it cannot stand for either.
            ids[row.Text] = ids.TryGetValue(row.Text, out var known) && known != key ? null : key;
        }

        return ids;
    }
}
