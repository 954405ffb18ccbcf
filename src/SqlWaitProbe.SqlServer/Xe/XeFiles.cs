using System.Text.RegularExpressions;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>Event-file names: the server appends <c>_0_&lt;number&gt;</c> to the name given, so files are found by pattern.</summary>
public static partial class XeFiles
{
    /// <summary>The pattern matching every rollover file of the session, from one current file path.</summary>
    public static string PatternOf(string currentFile) => RolloverSuffix().Replace(currentFile, "*.xel");

    /// <summary>Copies the files matching <paramref name="pattern"/> when they are readable here (server on this machine); returns the copies.</summary>
    public static IReadOnlyList<string> CopyLocal(string pattern, string destination)
    {
        try
        {
            var folder = Path.GetDirectoryName(pattern);
            if (string.IsNullOrEmpty(folder) || !Directory.Exists(folder))
            {
                return [];
            }

            Directory.CreateDirectory(destination);
            var copies = new List<string>();
            foreach (var file in Directory.EnumerateFiles(folder, Path.GetFileName(pattern)).Order(StringComparer.Ordinal))
            {
                var target = Path.Combine(destination, Path.GetFileName(file));
                File.Copy(file, target, overwrite: true);
                copies.Add(target);
            }

            return copies;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    /// <summary>
    /// Deletes the server's files matching <paramref name="pattern"/> once they are copied and read (server on this
    /// machine); a file that cannot be deleted is named in the log and left.
    /// </summary>
    public static int DeleteOriginals(string pattern)
    {
        var folder = Path.GetDirectoryName(pattern);
        if (string.IsNullOrEmpty(folder) || !Directory.Exists(folder))
        {
            return 0;
        }

        var deleted = 0;
        foreach (var file in Directory.EnumerateFiles(folder, Path.GetFileName(pattern)))
        {
            try
            {
                File.Delete(file);
                deleted++;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                Serilog.Log.Warning("could not delete the XE event file {File} after reading it: {Message}", file, e.Message);
            }
        }

        return deleted;
    }

    [GeneratedRegex(@"_\d+_\d+\.xel$", RegexOptions.IgnoreCase)]
    private static partial Regex RolloverSuffix();
}
