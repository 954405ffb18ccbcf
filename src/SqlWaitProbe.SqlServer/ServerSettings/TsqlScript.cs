using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using SqlWaitProbe.Core.ServerSettings;

namespace SqlWaitProbe.SqlServer.ServerSettings;

/// <summary>
/// T-SQL scripts as sqlcmd runs them: batches end at a line holding only <c>GO</c> (any case, an optional repeat
/// count and a trailing <c>--</c> comment), never inside a block comment or a string that spans lines. Each batch is
/// parsed with ScriptDom before anything is sent, so a syntax error is one line naming the batch and line.
/// </summary>
public static partial class TsqlScript
{
    /// <summary>The batches of <paramref name="script"/>, empty ones dropped.</summary>
    public static IReadOnlyList<ScriptBatch> Split(string script)
    {
        ArgumentNullException.ThrowIfNull(script);
        var batches = new List<ScriptBatch>();
        var current = new StringBuilder();
        var start = 1;
        var inComment = 0;
        var inString = false;
        var lines = script.Replace("\r\n", "\n", StringComparison.Ordinal).Split('\n');
        for (var n = 0; n < lines.Length; n++)
        {
            var line = lines[n];
            if (inComment == 0 && !inString && GoLine().Match(line) is { Success: true } go)
            {
                var repeat = go.Groups[1].Success ? int.Parse(go.Groups[1].Value, CultureInfo.InvariantCulture) : 1;
                Add(batches, current, start, Math.Max(1, repeat));
                start = n + 2;
                continue;
            }

            Scan(line, ref inComment, ref inString);
            current.Append(line).Append('\n');
        }

        Add(batches, current, start, 1);
        return batches;
    }

    /// <summary>Syntax errors ScriptDom finds in the batches of <paramref name="script"/> (SQL Server 2025 grammar), with the script's line of each.</summary>
    public static IReadOnlyList<ScriptProblem> Check(string script)
    {
        var problems = new List<ScriptProblem>();
        foreach (var batch in Split(script))
        {
            new TSql170Parser(initialQuotedIdentifiers: true).Parse(new StringReader(batch.Text), out var errors);
            problems.AddRange(errors.Select(e => new ScriptProblem(batch.Number, batch.Line + e.Line - 1, e.Message)));
        }

        return problems;
    }

    private static void Add(List<ScriptBatch> batches, StringBuilder text, int startLine, int repeat)
    {
        var raw = text.ToString();
        text.Clear();
        if (raw.Trim().Length == 0)
        {
            return;
        }

        // The batch starts at its first line with text, so a failing batch is named by a line the user recognises.
        var leading = raw.Length - raw.TrimStart('\n', ' ', '\t', '\r').Length;
        var skipped = raw[..leading].Count(c => c == '\n');
        batches.Add(new ScriptBatch(batches.Count + 1, startLine + skipped, raw.Trim(), repeat));
    }

    // Block comments nest in T-SQL; strings ('…', with '' inside) and bracketed names may hide either.
    private static void Scan(string line, ref int inComment, ref bool inString)
    {
        for (var i = 0; i < line.Length; i++)
        {
            var c = line[i];
            var next = i + 1 < line.Length ? line[i + 1] : '\0';
            if (inString)
            {
                if (c == '\'' && next == '\'')
                {
                    i++;
                }
                else if (c == '\'')
                {
                    inString = false;
                }
            }
            else if (inComment > 0)
            {
                if (c == '/' && next == '*')
                {
                    inComment++;
                    i++;
                }
                else if (c == '*' && next == '/')
                {
                    inComment--;
                    i++;
                }
            }
            else if (c == '-' && next == '-')
            {
                return;
            }
            else if (c == '/' && next == '*')
            {
                inComment++;
                i++;
            }
            else if (c == '\'')
            {
                inString = true;
            }
            else if (c == '[')
            {
                var end = line.IndexOf(']', i + 1);
                i = end < 0 ? line.Length : end;
            }
        }
    }

    [GeneratedRegex(@"^\s*[Gg][Oo](?:\s+(\d{1,9}))?\s*(?:--.*)?$")]
    private static partial Regex GoLine();
}
