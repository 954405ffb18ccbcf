using System.Globalization;
using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>
/// Reads PDH-CSV 4.0 files as perfmon, relog and <see cref="PdhCsvWriter"/> write them. Times are converted to UTC
/// with the bias the header gives; blank cells are missing values.
/// </summary>
public static partial class PdhCsvReader
{
    private static readonly string[] TimestampFormats = ["MM/dd/yyyy HH:mm:ss.fff", "MM/dd/yyyy HH:mm:ss", "M/d/yyyy H:mm:ss.fff", "M/d/yyyy H:mm:ss"];

    /// <summary>Reads a file; <paramref name="file"/> names it in errors.</summary>
    public static PdhTable Read(TextReader reader, string file)
    {
        ArgumentNullException.ThrowIfNull(reader);
        var headerLine = reader.ReadLine();
        if (headerLine is null)
        {
            throw new BadInputException("the file is empty; a PDH-CSV file starts with a \"(PDH-CSV 4.0) ...\" header", file, 1);
        }

        var header = Csv.Split(headerLine.TrimStart('\uFEFF'));
        var format = HeaderPattern().Match(header[0]);
        if (!format.Success)
        {
            throw new BadInputException($"the first header cell is '{header[0]}', not \"(PDH-CSV 4.0) (time zone)(bias)\"", file, 1);
        }

        // Windows' bias: UTC = local time + bias minutes.
        if (!int.TryParse(format.Groups["bias"].Value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var biasMinutes) || Math.Abs(biasMinutes) > 24 * 60)
        {
            throw new BadInputException($"the time zone bias '{format.Groups["bias"].Value}' is not a number of minutes within a day", file, 1);
        }

        var bias = TimeSpan.FromMinutes(biasMinutes);
        string machine = string.Empty;
        var counters = new List<string>(header.Count - 1);
        foreach (var cell in header.Skip(1))
        {
            var (host, path) = SplitMachine(cell);
            machine = machine.Length == 0 ? host : machine;
            counters.Add(path);
        }

        var rows = new List<PdhRow>();
        long lineNumber = 1;
        while (reader.ReadLine() is { } line)
        {
            lineNumber++;
            if (line.Trim().Length == 0)
            {
                continue;
            }

            var cells = Csv.Split(line);
            if (!DateTime.TryParseExact(cells[0].Trim(), TimestampFormats, CultureInfo.InvariantCulture, DateTimeStyles.None, out var local)
                || local.Year is < 2 or > 9998)
            {
                throw new BadInputException($"'{cells[0]}' is not a time in MM/dd/yyyy HH:mm:ss.fff form", file, lineNumber);
            }

            var values = new double?[counters.Count];
            for (var i = 0; i < counters.Count; i++)
            {
                var text = i + 1 < cells.Count ? cells[i + 1].Trim() : string.Empty;
                if (text.Length == 0)
                {
                    continue;
                }

                if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value))
                {
                    throw new BadInputException($"counter value '{text}' in column {i + 2} is not a number", file, lineNumber);
                }

                values[i] = value;
            }

            rows.Add(new PdhRow(DateTime.SpecifyKind(local + bias, DateTimeKind.Utc), values));
        }

        return new PdhTable(machine, counters, rows);
    }

    /// <summary>Reads a file from disk.</summary>
    public static PdhTable ReadFile(string path)
    {
        using var reader = new StreamReader(path);
        return Read(reader, path);
    }

    private static (string Machine, string Path) SplitMachine(string cell)
    {
        if (!cell.StartsWith(@"\\", StringComparison.Ordinal))
        {
            return (string.Empty, cell);
        }

        var slash = cell.IndexOf('\\', 2);
        return slash < 0 ? (cell[2..], string.Empty) : (cell[2..slash], cell[slash..]);
    }

    [GeneratedRegex(@"^\(PDH-CSV 4\.0\) \((?<zone>[^)]*)\)\((?<bias>-?\d+)\)")]
    private static partial Regex HeaderPattern();
}
