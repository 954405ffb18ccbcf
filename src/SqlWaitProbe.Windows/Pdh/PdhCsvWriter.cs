using System.Globalization;
using System.Text;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>
/// Writes counters in the PDH-CSV 4.0 layout perfmon and relog read: a header whose first cell names the format and
/// time zone, then one column per <c>\\HOST\Object(Instance)\Counter</c>; every cell quoted; times as
/// <c>MM/dd/yyyy HH:mm:ss.fff</c>; a blank cell (<c>" "</c>) where a counter had no value.
/// </summary>
public static class PdhCsvWriter
{
    /// <summary>The first header cell: format version, time zone name and bias in minutes.</summary>
    public const string UtcHeaderCell = "(PDH-CSV 4.0) (Coordinated Universal Time)(0)";

    /// <summary>The timestamp layout of the first column.</summary>
    public const string TimestampFormat = "MM/dd/yyyy HH:mm:ss.fff";

    /// <summary>Writes the header line.</summary>
    public static void WriteHeader(string machine, IReadOnlyList<string> counters, TextWriter writer)
    {
        var sb = new StringBuilder();
        sb.Append(Quote(UtcHeaderCell));
        foreach (var counter in counters)
        {
            sb.Append(',').Append(Quote(@"\\" + machine + counter));
        }

        writer.Write(sb.Append('\n'));
    }

    /// <summary>Writes one sample line; times are written in UTC, as the header says.</summary>
    public static void WriteRow(PdhRow row, TextWriter writer)
    {
        var sb = new StringBuilder();
        sb.Append(Quote(row.Utc.ToUniversalTime().ToString(TimestampFormat, CultureInfo.InvariantCulture)));
        foreach (var value in row.Values)
        {
            sb.Append(',').Append(Quote(value is { } v && double.IsFinite(v) ? v.ToString("R", CultureInfo.InvariantCulture) : " "));
        }

        writer.Write(sb.Append('\n'));
    }

    /// <summary>Writes a whole table.</summary>
    public static void Write(PdhTable table, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(table);
        WriteHeader(table.Machine, table.Counters, writer);
        foreach (var row in table.Rows)
        {
            WriteRow(row, writer);
        }
    }

    // PDH-CSV quotes every cell; a quoted formula still runs in a spreadsheet, so cells are neutralised first.
    private static string Quote(string cell) => "\"" + Core.Text.Csv.Neutralise(cell).Replace("\"", "\"\"") + "\"";
}
