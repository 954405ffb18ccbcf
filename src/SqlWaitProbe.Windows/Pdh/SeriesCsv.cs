using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>Appends points to a phase's <c>series.csv</c> (<c>utc,series,value</c>), which several collectors share.</summary>
public static class SeriesCsv
{
    /// <summary>The header line.</summary>
    public const string Header = "utc,series,value";

    /// <summary>Formats one point as a CSV line (no line end).</summary>
    public static string Line(SeriesPoint point) =>
        Csv.Line(
            point.Utc.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture),
            point.Series,
            point.Value.ToString("0.######", CultureInfo.InvariantCulture));

    /// <summary>
    /// Appends <paramref name="points"/> in one write, adding the header when the file is new, so rows of other
    /// collectors already in the file are kept.
    /// </summary>
    public static void Append(string path, IEnumerable<SeriesPoint> points)
    {
        var sb = new StringBuilder();
        var fresh = !File.Exists(path) || new FileInfo(path).Length == 0;
        if (fresh)
        {
            sb.Append(Header).Append('\n');
        }

        foreach (var point in points)
        {
            sb.Append(Line(point)).Append('\n');
        }

        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        File.AppendAllText(path, sb.ToString(), new UTF8Encoding(false));
    }
}
