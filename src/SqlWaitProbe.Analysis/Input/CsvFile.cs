using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Analysis.Input;

/// <summary>Streams a bundle CSV row by row, checking its header and reporting bad values with file and line.</summary>
public sealed class CsvFile : IDisposable
{
    private readonly TextReader _reader;
    private readonly Dictionary<string, int> _columns = new(StringComparer.Ordinal);
    private List<string> _fields = [];

    private CsvFile(TextReader reader, string name)
    {
        _reader = reader;
        Name = name;
    }

    /// <summary>The bundle-relative file name used in error messages.</summary>
    public string Name { get; }

    /// <summary>The 1-based line number of the current row.</summary>
    public long LineNumber { get; private set; }

    /// <summary>Opens <paramref name="relative"/> in <paramref name="bundle"/> requiring the given columns, or returns null when absent.</summary>
    public static CsvFile? Open(CaptureBundle bundle, string relative, params string[] requiredColumns)
    {
        var reader = bundle.OpenText(relative);
        return reader is null ? null : Open(reader, relative, requiredColumns);
    }

    /// <summary>Wraps a reader (owned by the result) whose first line is the header.</summary>
    public static CsvFile Open(TextReader reader, string name, params string[] requiredColumns)
    {
        var file = new CsvFile(reader, name);
        var header = reader.ReadLine();
        file.LineNumber = 1;
        if (header is null)
        {
            reader.Dispose();
            throw new BadInputException("the file is empty; a header line was expected", name, 1);
        }

        var names = Csv.Split(header.TrimStart('\uFEFF'));
        for (var i = 0; i < names.Count; i++)
        {
            file._columns[names[i].Trim()] = i;
        }

        foreach (var column in requiredColumns)
        {
            if (!file._columns.ContainsKey(column))
            {
                reader.Dispose();
                throw new BadInputException($"the header lacks column '{column}' (expected {string.Join(',', requiredColumns)})", name, 1);
            }
        }

        return file;
    }

    /// <summary>True when the file has the column.</summary>
    public bool HasColumn(string column) => _columns.ContainsKey(column);

    /// <summary>Advances to the next non-empty row; false at the end.</summary>
    public bool Read()
    {
        while (_reader.ReadLine() is { } line)
        {
            LineNumber++;
            if (line.Length == 0)
            {
                continue;
            }

            if (line.Contains('\0'))
            {
                throw new BadInputException("this is binary data, not CSV", Name, LineNumber);
            }

            _fields = Csv.Split(line);
            return true;
        }

        return false;
    }

    /// <summary>The text of a column in the current row (empty when the row is short or the column absent).</summary>
    public string Text(string column) =>
        _columns.TryGetValue(column, out var i) && i < _fields.Count ? _fields[i] : string.Empty;

    /// <summary>A required number; throws <see cref="BadInputException"/> naming file and line when it is not one.</summary>
    public double Number(string column)
    {
        var text = Text(column);
        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !double.IsFinite(value))
        {
            throw new BadInputException($"column '{column}' holds '{Shorten(text)}', which is not a number", Name, LineNumber);
        }

        return value;
    }

    /// <summary>
    /// A required count or weight: a finite, non-negative number below 2^63 (so it converts to a 64-bit count); throws
    /// <see cref="BadInputException"/> naming file and line otherwise.
    /// </summary>
    public double Count(string column)
    {
        var value = Number(column);
        if (!(value >= 0) || value >= 9223372036854775808.0)
        {
            throw new BadInputException($"column '{column}' holds '{Shorten(Text(column))}', which is not a count (a finite, non-negative number of at most {long.MaxValue.ToString(CultureInfo.InvariantCulture)})", Name, LineNumber);
        }

        return value;
    }

    /// <summary>An optional number: null when the field is empty, else as <see cref="Number"/>.</summary>
    public double? OptionalNumber(string column) => Text(column).Length == 0 ? null : Number(column);

    /// <summary>A required UTC time; throws naming file and line when it does not parse.</summary>
    public DateTime Utc(string column)
    {
        var text = Text(column);
        if (!DateTime.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var value))
        {
            throw new BadInputException($"column '{column}' holds '{Shorten(text)}', which is not a UTC time", Name, LineNumber);
        }

        return value;
    }

    /// <inheritdoc />
    public void Dispose() => _reader.Dispose();

    private static string Shorten(string s) => s.Length <= 40 ? s : s[..40] + "…";
}
