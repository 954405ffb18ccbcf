using System.Text;
using SqlWaitProbe.Core.ServerSettings;

namespace SqlWaitProbe.Postgres.ServerSettings;

/// <summary>
/// Splits a PostgreSQL script into statements at the semicolons psql would split at: not inside quotes, quoted
/// names, dollar-quoted bodies (functions, DO blocks) or comments. Each statement keeps the line it starts on, so a
/// failing one is named by its line in the user's file.
/// </summary>
public static class PostgresScript
{
    /// <summary>The statements of <paramref name="script"/>, without their semicolons; empty ones are dropped.</summary>
    public static IReadOnlyList<ScriptBatch> Split(string script)
    {
        ArgumentNullException.ThrowIfNull(script);
        var batches = new List<ScriptBatch>();
        var current = new StringBuilder();
        var line = 1;
        var startLine = 0;
        var i = 0;

        void Flush()
        {
            var text = current.ToString().Trim();
            if (text.Length > 0 && !IsOnlyComments(text))
            {
                batches.Add(new ScriptBatch(batches.Count + 1, startLine, text));
            }

            current.Clear();
            startLine = 0;
        }

        void Take(int count)
        {
            for (var k = 0; k < count && i < script.Length; k++, i++)
            {
                if (script[i] == '\n')
                {
                    line++;
                }

                current.Append(script[i]);
            }
        }

        while (i < script.Length)
        {
            var c = script[i];
            if (startLine == 0 && !char.IsWhiteSpace(c) && !(c == '-' && Next(script, i) == '-') && !(c == '/' && Next(script, i) == '*'))
            {
                startLine = line;
            }

            if (c == ';')
            {
                i++;
                Flush();
            }
            else if (c == '-' && Next(script, i) == '-')
            {
                var end = script.IndexOf('\n', i);
                Take((end < 0 ? script.Length : end) - i);
            }
            else if (c == '/' && Next(script, i) == '*')
            {
                var depth = 0;
                var j = i;
                do
                {
                    if (script[j] == '/' && Next(script, j) == '*')
                    {
                        depth++;
                        j += 2;
                    }
                    else if (script[j] == '*' && Next(script, j) == '/')
                    {
                        depth--;
                        j += 2;
                    }
                    else
                    {
                        j++;
                    }
                }
                while (depth > 0 && j < script.Length);
                Take(j - i);
            }
            else if (c == '\'')
            {
                var escapes = i > 0 && script[i - 1] is 'E' or 'e' && (i < 2 || !char.IsLetterOrDigit(script[i - 2]));
                Take(1);
                while (i < script.Length)
                {
                    if (escapes && script[i] == '\\')
                    {
                        Take(2);
                    }
                    else if (script[i] == '\'' && Next(script, i) == '\'')
                    {
                        Take(2);
                    }
                    else if (script[i] == '\'')
                    {
                        Take(1);
                        break;
                    }
                    else
                    {
                        Take(1);
                    }
                }
            }
            else if (c == '"')
            {
                var end = script.IndexOf('"', i + 1);
                Take((end < 0 ? script.Length : end + 1) - i);
            }
            else if (c == '$' && DollarTag(script, i) is { } tag)
            {
                var end = script.IndexOf(tag, i + tag.Length, StringComparison.Ordinal);
                Take((end < 0 ? script.Length : end + tag.Length) - i);
            }
            else
            {
                Take(1);
            }
        }

        Flush();
        return batches;
    }

    private static char Next(string s, int i) => i + 1 < s.Length ? s[i + 1] : '\0';

    // $$ or $name$ opens a dollar-quoted string; $1 (a parameter) does not.
    private static string? DollarTag(string s, int i)
    {
        if (i > 0 && (char.IsLetterOrDigit(s[i - 1]) || s[i - 1] == '_'))
        {
            return null;
        }

        var j = i + 1;
        while (j < s.Length && (char.IsLetterOrDigit(s[j]) || s[j] == '_'))
        {
            j++;
        }

        return j < s.Length && s[j] == '$' && (j == i + 1 || !char.IsDigit(s[i + 1])) ? s[i..(j + 1)] : null;
    }

    // A statement of comments alone (the script's last lines) is nothing to send.
    private static bool IsOnlyComments(string text)
    {
        var i = 0;
        while (i < text.Length)
        {
            if (char.IsWhiteSpace(text[i]))
            {
                i++;
            }
            else if (text[i] == '-' && Next(text, i) == '-')
            {
                var end = text.IndexOf('\n', i);
                i = end < 0 ? text.Length : end;
            }
            else if (text[i] == '/' && Next(text, i) == '*')
            {
                var end = text.IndexOf("*/", i + 2, StringComparison.Ordinal);
                i = end < 0 ? text.Length : end + 2;
            }
            else
            {
                return false;
            }
        }

        return true;
    }
}
