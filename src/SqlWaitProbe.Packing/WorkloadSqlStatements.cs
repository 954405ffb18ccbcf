using System.Text;

namespace SqlWaitProbe.Packing;

/// <summary>
/// Splits a bundle's <c>workload.sql</c> into the statements the engine sent, so redaction replaces each whole. A
/// statement ends at a <c>;</c> that closes its line, or at a T-SQL <c>GO</c> line, but never inside a quoted string,
/// a PostgreSQL dollar-quoted body (<c>DO $probe$ … $probe$</c>, whose <c>END IF;</c> lines end no statement) or a
/// comment. Comment lines before a statement are left out of it; those inside it stay, as the file holds them.
/// </summary>
public static class WorkloadSqlStatements
{
    /// <summary>The statements of <paramref name="script"/>, trimmed, without comment lines; empty ones left out.</summary>
    public static IReadOnlyList<string> Split(string script)
    {
        var statements = new List<string>();
        var current = new StringBuilder();
        string? dollarTag = null;
        var inString = false;
        var i = 0;
        while (i < script.Length)
        {
            var c = script[i];
            if (dollarTag is not null)
            {
                if (c == '$' && string.CompareOrdinal(script, i, dollarTag, 0, dollarTag.Length) == 0)
                {
                    current.Append(dollarTag);
                    i += dollarTag.Length;
                    dollarTag = null;
                    continue;
                }
            }
            else if (inString)
            {
                inString = c != '\'';
            }
            else if (c == '\'')
            {
                inString = true;
            }
            else if (c == '-' && i + 1 < script.Length && script[i + 1] == '-')
            {
                // A comment runs to the line's end: a ';' or quote in it ends or opens nothing. Before a statement it
                // is no part of it.
                var end = script.IndexOf('\n', i);
                end = end < 0 ? script.Length : end;
                if (current.ToString().Trim().Length > 0)
                {
                    current.Append(script, i, end - i);
                }

                i = end;
                continue;
            }
            else if (c == '$' && DollarTag(script, i) is { } tag)
            {
                dollarTag = tag;
                current.Append(tag);
                i += tag.Length;
                continue;
            }
            else if (c == ';' && RestOfLineIsBlank(script, i + 1))
            {
                Add(statements, current);
                i++;
                continue;
            }
            else if ((i == 0 || script[i - 1] == '\n') && IsGoLine(script, i, out var next))
            {
                Add(statements, current);
                i = next;
                continue;
            }

            current.Append(c);
            i++;
        }

        Add(statements, current);
        return statements;
    }

    private static void Add(List<string> statements, StringBuilder current)
    {
        var text = current.ToString().Trim();
        current.Clear();
        if (text.Length > 0)
        {
            statements.Add(text);
        }
    }

    // $$ or $name$ (a letter or underscore, then letters, digits, underscores), as PostgreSQL reads a dollar quote.
    private static string? DollarTag(string s, int i)
    {
        var j = i + 1;
        if (j < s.Length && s[j] == '$')
        {
            return "$$";
        }

        if (j >= s.Length || !(char.IsLetter(s[j]) || s[j] == '_'))
        {
            return null;
        }

        while (j < s.Length && (char.IsLetterOrDigit(s[j]) || s[j] == '_'))
        {
            j++;
        }

        return j < s.Length && s[j] == '$' ? s[i..(j + 1)] : null;
    }

    private static bool RestOfLineIsBlank(string s, int i)
    {
        for (; i < s.Length && s[i] != '\n'; i++)
        {
            if (!char.IsWhiteSpace(s[i]))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsGoLine(string s, int i, out int next)
    {
        var end = s.IndexOf('\n', i);
        end = end < 0 ? s.Length : end;
        next = end;
        return end - i <= 64 && s[i..end].Trim().Equals("GO", StringComparison.OrdinalIgnoreCase);
    }
}
