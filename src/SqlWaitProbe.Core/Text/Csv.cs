using System.Globalization;
using System.Text;

namespace SqlWaitProbe.Core.Text;

/// <summary>
/// Minimal RFC 4180 CSV with invariant numbers: the one cell writer of every CSV the probe writes (bundle tables,
/// <c>xe read</c>, the stacks verbs' <c>--format csv</c>, PDH-CSV) and the one cell reader of the bundle's tables.
/// </summary>
public static class Csv
{
    // A spreadsheet evaluates a cell that starts with one of these as a formula (OWASP, "CSV Injection").
    private const string FormulaStarts = "=+-@\t\r";

    /// <summary>
    /// One cell: neutralised when it is text a spreadsheet would run as a formula (<see cref="Neutralise"/>), then
    /// quoted when it holds a comma, quote or line break.
    /// </summary>
    public static string Escape(string? value)
    {
        if (string.IsNullOrEmpty(value))
        {
            return string.Empty;
        }

        value = Neutralise(value);
        return value.AsSpan().IndexOfAny(",\"\r\n") < 0 ? value : "\"" + value.Replace("\"", "\"\"") + "\"";
    }

    /// <summary>
    /// Text starting with <c>= + - @</c>, a tab or a carriage return (after any run of <c>'</c>) gets one more
    /// <c>'</c> in front, so a spreadsheet shows it instead of running it (<c>=cmd|'/C calc'!A0</c>); numbers, such as
    /// <c>-5</c> or <c>-1.5e-3</c>, stay numbers. <see cref="Restore"/> takes the <c>'</c> off again, so the probe
    /// reads back exactly what it wrote.
    /// </summary>
    public static string Neutralise(string value) =>
        StartsLikeFormula(value) && !IsNumber(value) ? "'" + value : value;

    /// <summary>The cell as it was before <see cref="Neutralise"/>.</summary>
    public static string Restore(string cell) =>
        cell.Length > 1 && cell[0] == '\'' && StartsLikeFormula(cell.AsSpan(1)) ? cell[1..] : cell;

    /// <summary>Formats a number with the invariant culture ("R"-style shortest form for doubles).</summary>
    public static string Number(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);

    /// <summary>Formats a whole number with the invariant culture.</summary>
    public static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>Joins escaped fields into a line.</summary>
    public static string Line(params string?[] fields) => string.Join(',', fields.Select(Escape));

    /// <summary>Splits one CSV line into fields (quoted fields may hold commas; no embedded line breaks), each <see cref="Restore"/>d.</summary>
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
                fields.Add(Restore(sb.ToString()));
                sb.Clear();
            }
            else
            {
                sb.Append(c);
            }
        }

        fields.Add(Restore(sb.ToString()));
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

    private static bool StartsLikeFormula(ReadOnlySpan<char> text)
    {
        var rest = text.TrimStart('\'');
        return rest.Length > 0 && FormulaStarts.Contains(rest[0]);
    }

    private static bool IsNumber(string text) =>
        double.TryParse(text, NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent, CultureInfo.InvariantCulture, out _);
}
