using System.Globalization;
using System.Text;

namespace SqlWaitProbe.Core.Text;

/// <summary>Minimal RFC 4180 CSV with invariant numbers, for the bundle's tables.</summary>
public static class Csv
{
    /// <summary>Quotes a field when it holds a comma, quote or line break.</summary>
    public static string Escape(string? value)
    {
        if (string.IsNullOrEmpty(value))
        {
            return string.Empty;
        }

        return value.AsSpan().IndexOfAny(",\"\r\n") < 0 ? value : "\"" + value.Replace("\"", "\"\"") + "\"";
    }

    /// <summary>Formats a number with the invariant culture ("R"-style shortest form for doubles).</summary>
    public static string Number(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);

    /// <summary>Formats a whole number with the invariant culture.</summary>
    public static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>Joins escaped fields into a line.</summary>
    public static string Line(params string?[] fields) => string.Join(',', fields.Select(Escape));

    /// <summary>Splits one CSV line into fields (quoted fields may hold commas; no embedded line breaks).</summary>
    public static List<string> Split(string line)
    {
        var fields = new List<string>();
        var sb = new StringBuilder();
        var quoted = false;
        for (var i = 0; i < line.Length; i++)
        {
            var c = line[i];
            if (quoted)
            {
                if (c == '"')
                {
                    if (i + 1 < line.Length && line[i + 1] == '"')
                    {
                        sb.Append('"');
                        i++;
                    }
                    else
                    {
                        quoted = false;
                    }
                }
                else
                {
                    sb.Append(c);
                }
            }
            else if (c == '"')
            {
                quoted = true;
            }
            else if (c == ',')
            {
                fields.Add(sb.ToString());
                sb.Clear();
            }
            else
            {
                sb.Append(c);
            }
        }

        fields.Add(sb.ToString());
        return fields;
    }

    /// <summary>Reads a CSV file with a header into rows keyed by column name.</summary>
    public static IEnumerable<IReadOnlyDictionary<string, string>> ReadRows(TextReader reader)
    {
        var header = reader.ReadLine();
        if (header is null)
        {
            yield break;
        }

        var names = Split(header);
        while (reader.ReadLine() is { } line)
        {
            if (line.Length == 0)
            {
                continue;
            }

            var fields = Split(line);
            var row = new Dictionary<string, string>(names.Count, StringComparer.Ordinal);
            for (var i = 0; i < names.Count; i++)
            {
                row[names[i]] = i < fields.Count ? fields[i] : string.Empty;
            }

            yield return row;
        }
    }

    /// <summary>Parses an invariant double, or returns <paramref name="fallback"/>.</summary>
    public static double ParseDouble(string? text, double fallback = 0) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : fallback;
}
