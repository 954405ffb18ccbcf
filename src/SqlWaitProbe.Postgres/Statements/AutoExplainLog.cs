using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// Finds the plans <c>auto_explain</c> wrote into a piece of the server's log, in any of the logging collector's
/// formats: <c>stderr</c> (the message's first line after <c>log_line_prefix</c>, its continuation lines indented by a
/// tab), <c>csvlog</c> (the message is the 14th field, quoted, over several lines) and <c>jsonlog</c> (one object per
/// line, PostgreSQL 15 on). An entry is a message <c>duration: N ms  plan:</c> followed by the plan: a JSON object
/// (<c>auto_explain.log_format = json</c>) is read, the other formats are only counted. The server's messages must be
/// in English (<c>lc_messages</c> C or en), as the message is recognised by its words.
/// </summary>
public static partial class AutoExplainLog
{
    /// <summary>The logging collector's file formats, as <c>pg_current_logfile(format)</c> names them.</summary>
    public static readonly IReadOnlyList<string> Formats = ["jsonlog", "csvlog", "stderr"];

    /// <summary>Reads every auto_explain entry of <paramref name="text"/>, a piece of a log file in <paramref name="format"/>.</summary>
    public static IReadOnlyList<AutoExplainEntry> Read(string text, string format)
    {
        ArgumentNullException.ThrowIfNull(text);
        var entries = new List<AutoExplainEntry>();
        switch (format)
        {
            case "jsonlog":
                foreach (var line in text.Split('\n'))
                {
                    if (FromJsonLine(line) is { } entry)
                    {
                        entries.Add(entry);
                    }
                }

                break;
            case "csvlog":
                foreach (var record in CsvRecords(text))
                {
                    // log_time, user, database, pid, … message is the 14th field; query_id the 26th (PostgreSQL 14 on).
                    if (record.Count > 13 && FromMessage(record[13], Pid(record[3]), record.Count > 25 ? QueryId(record[25]) : null) is { } entry)
                    {
                        entries.Add(entry);
                    }
                }

                break;
            case "stderr":
                entries.AddRange(FromStderr(text));
                break;
            default:
                throw new ArgumentException($"unknown log format {format}", nameof(format));
        }

        return entries;
    }

    /// <summary>
    /// One message: <c>duration: N ms  plan:</c>, a new line, the plan. Null for every other message (the plan of
    /// <c>log_min_duration_statement</c> says <c>statement:</c>, not <c>plan:</c>).
    /// </summary>
    public static AutoExplainEntry? FromMessage(string message, int? pid, long? queryId)
    {
        ArgumentNullException.ThrowIfNull(message);
        var head = PlanHead().Match(message);
        if (!head.Success)
        {
            return null;
        }

        var duration = double.Parse(head.Groups[1].Value, CultureInfo.InvariantCulture);
        var body = message[head.Length..].Trim();
        if (!body.StartsWith('{'))
        {
            // Text, XML or YAML: recognised, not read. Text starts with its query ("Query Text: …").
            var query = body.StartsWith("Query Text: ", StringComparison.Ordinal) ? body["Query Text: ".Length..].Split('\n')[0] : null;
            return new AutoExplainEntry(duration, pid, queryId, query, null, FormatOf(body));
        }

        try
        {
            using var doc = JsonDocument.Parse(body, new JsonDocumentOptions { MaxDepth = 256 });
            var root = doc.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Plan", out var plan) || plan.ValueKind != JsonValueKind.Object)
            {
                return new AutoExplainEntry(duration, pid, queryId, null, null, "unreadable");
            }

            var text = root.TryGetProperty("Query Text", out var t) && t.ValueKind == JsonValueKind.String ? t.GetString() : null;

            // PostgreSQL 16 on prints the id in the plan with auto_explain.log_verbose; the log record's own id
            // (csvlog, jsonlog) is the top-level statement's, the same unless auto_explain.log_nested_statements.
            var id = root.TryGetProperty("Query Identifier", out var q) && q.TryGetInt64(out var own) && own != 0 ? own : queryId;
            return new AutoExplainEntry(duration, pid, id, text, body, "json");
        }
        catch (JsonException)
        {
            // A plan cut by the end of what was read, or damaged.
            return new AutoExplainEntry(duration, pid, queryId, null, null, "unreadable");
        }
    }

    // XML opens with its element; YAML names its plan on a line of its own ("Plan: "); text does not.
    private static string FormatOf(string body) =>
        body.StartsWith('<') ? "xml" : body.Contains("\nPlan: ", StringComparison.Ordinal) ? "yaml" : "text";

    private static AutoExplainEntry? FromJsonLine(string line)
    {
        if (!line.Contains("plan:", StringComparison.Ordinal))
        {
            return null;
        }

        try
        {
            using var doc = JsonDocument.Parse(line);
            var root = doc.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("message", out var message) || message.ValueKind != JsonValueKind.String)
            {
                return null;
            }

            int? pid = root.TryGetProperty("pid", out var p) && p.TryGetInt32(out var pv) ? pv : null;
            long? id = root.TryGetProperty("query_id", out var q) && q.TryGetInt64(out var qv) && qv != 0 ? qv : null;
            return FromMessage(message.GetString()!, pid, id);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static IEnumerable<AutoExplainEntry> FromStderr(string text)
    {
        // A message's continuation lines start with a tab; its first line ends with "duration: N ms  plan:".
        var lines = text.Split('\n');
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i].TrimEnd('\r');
            var at = line.IndexOf("duration: ", StringComparison.Ordinal);
            if (at < 0 || !line.EndsWith("plan:", StringComparison.Ordinal))
            {
                continue;
            }

            var message = new StringBuilder(line[at..]).Append('\n');
            while (i + 1 < lines.Length && lines[i + 1].StartsWith('\t'))
            {
                message.Append(lines[++i].AsSpan(1).TrimEnd('\r')).Append('\n');
            }

            if (FromMessage(message.ToString(), StderrPid(line[..at]), null) is { } entry)
            {
                yield return entry;
            }
        }
    }

    // The default log_line_prefix ('%m [%p] ') shows the pid in brackets; another prefix may not show it.
    private static int? StderrPid(string prefix) => StderrPidPattern().Match(prefix) is { Success: true } m ? Pid(m.Groups[1].Value) : null;

    private static int? Pid(string text) => int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) ? pid : null;

    private static long? QueryId(string text) => long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var id) && id != 0 ? id : null;

    /// <summary>The records of a csvlog piece: fields separated by commas, quoted ones may hold commas, quotes (doubled) and new lines.</summary>
    private static IEnumerable<List<string>> CsvRecords(string text)
    {
        var fields = new List<string>();
        var field = new StringBuilder();
        var quoted = false;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (quoted)
            {
                if (c == '"' && i + 1 < text.Length && text[i + 1] == '"')
                {
                    field.Append('"');
                    i++;
                }
                else if (c == '"')
                {
                    quoted = false;
                }
                else
                {
                    field.Append(c);
                }
            }
            else if (c == '"')
            {
                quoted = true;
            }
            else if (c == ',')
            {
                fields.Add(field.ToString());
                field.Clear();
            }
            else if (c == '\n')
            {
                fields.Add(field.ToString());
                field.Clear();
                yield return fields;
                fields = [];
            }
            else if (c != '\r')
            {
                field.Append(c);
            }
        }
    }

    [GeneratedRegex(@"^duration: ([0-9]+(?:\.[0-9]+)?) ms  plan:\r?\n")]
    private static partial Regex PlanHead();

    [GeneratedRegex(@"\[([0-9]+)\]")]
    private static partial Regex StderrPidPattern();
}

/// <summary>One plan auto_explain logged.</summary>
/// <param name="DurationMs">The execution's duration, ms, as auto_explain logged it.</param>
/// <param name="Pid">The backend's pid when the log shows it.</param>
/// <param name="QueryId">The statement's query id when the log or the plan shows it.</param>
/// <param name="QueryText">The statement's text as the backend received it (constants or <c>$1</c> parameters).</param>
/// <param name="PlanJson">The plan object (<c>{"Query Text": …, "Plan": …}</c>) when logged as JSON; null otherwise.</param>
/// <param name="Format"><c>json</c>, <c>text</c>, <c>xml</c>, <c>yaml</c> or <c>unreadable</c> (cut or damaged JSON).</param>
public sealed record AutoExplainEntry(double DurationMs, int? Pid, long? QueryId, string? QueryText, string? PlanJson, string Format);
