namespace SqlWaitProbe.Windows.Etw;

/// <summary>Raw trace files (<c>SqlWaitProbe-*.etl</c>, <c>.etlx</c>) that a killed capture left in its work folder.</summary>
public static class EtwLeftoverFiles
{
    /// <summary>
    /// Deletes the probe's raw trace files in <paramref name="folder"/> (default: the temporary folder) and returns
    /// the paths deleted. A file still open, because a running capture owns it, is left alone.
    /// </summary>
    public static IReadOnlyList<string> Delete(string? folder = null)
    {
        var deleted = new List<string>();
        folder ??= Path.GetTempPath();
        if (!Directory.Exists(folder))
        {
            return deleted;
        }

        foreach (var file in Directory.EnumerateFiles(folder, EtwSessionNames.Prefix + "*"))
        {
            if (!file.EndsWith(".etl", StringComparison.OrdinalIgnoreCase) && !file.EndsWith(".etlx", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            try
            {
                using (new FileStream(file, FileMode.Open, FileAccess.ReadWrite, FileShare.None))
                {
                    // Opening exclusively proves no capture is writing it.
                }

                File.Delete(file);
                deleted.Add(file);
            }
            catch (IOException)
            {
            }
            catch (UnauthorizedAccessException)
            {
            }
        }

        return deleted;
    }
}
