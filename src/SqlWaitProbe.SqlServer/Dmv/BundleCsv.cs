using System.Globalization;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>Writes bundle CSV files safely: to a temporary file moved into place.</summary>
public static class BundleCsv
{
    /// <summary>The bundle's UTC time format.</summary>
    public static string Utc(DateTime utc) => utc.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);

    /// <summary>Writes <paramref name="header"/> and <paramref name="lines"/> to <paramref name="path"/> via a temporary file.</summary>
    public static void Write(string path, string header, IEnumerable<string> lines)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        Core.Files.AtomicFile.WriteText(path, writer =>
        {
            writer.WriteLine(header);
            foreach (var line in lines)
            {
                writer.WriteLine(line);
            }
        });
    }
}
