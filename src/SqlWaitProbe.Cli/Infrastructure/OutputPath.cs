using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Checks an output path before a command starts work: of the right kind (a folder where a folder is written,
/// a file where a file is), writable, and not overwriting an earlier result unless <c>--force</c> says so.
/// Every failure is one line of bad input (exit 2).
/// </summary>
public static class OutputPath
{
    private static readonly string[] ReportFiles = ["report.md", "report.html", "findings.json"];

    /// <summary>Checks a report folder: not a file, writable, and holding no report unless <paramref name="force"/>.</summary>
    public static void CheckReportFolder(string folder, bool force)
    {
        var full = Path.GetFullPath(folder);
        if (File.Exists(full))
        {
            throw new BadInputException("-o names an existing file, but a report is a folder; choose a folder name", folder);
        }

        if (Directory.Exists(full))
        {
            if (!force && ReportFiles.Any(f => File.Exists(Path.Combine(full, f))))
            {
                throw new BadInputException("the folder already holds a report; add --force to overwrite it, or choose another -o", folder);
            }

            CheckWritable(full, folder);
            return;
        }

        CheckWritable(NearestExistingFolder(full, folder), folder);
    }

    /// <summary>Checks an output file: not a folder, its folder exists and is writable, and it does not exist unless <paramref name="force"/>.</summary>
    public static void CheckFile(string file, bool force)
    {
        var full = Path.GetFullPath(file);
        if (Directory.Exists(full))
        {
            throw new BadInputException("-o names an existing folder, but a file is written here; give a file name", file);
        }

        var parent = Path.GetDirectoryName(full)!;
        if (!Directory.Exists(parent))
        {
            throw new BadInputException("the folder of the output file does not exist; create it first", file);
        }

        if (File.Exists(full) && !force)
        {
            throw new BadInputException("the file already exists; add --force to overwrite it, or choose another -o", file);
        }

        CheckWritable(parent, file);
    }

    private static string NearestExistingFolder(string full, string given)
    {
        var current = Path.GetDirectoryName(full);
        while (current is not null && !Directory.Exists(current))
        {
            if (File.Exists(current))
            {
                throw new BadInputException($"'{current}' is a file, so no folder can be made under it; choose another -o", given);
            }

            current = Path.GetDirectoryName(current);
        }

        return current ?? throw new BadInputException("no existing folder above the output path", given);
    }

    private static void CheckWritable(string folder, string given)
    {
        var probe = Path.Combine(folder, ".probe-write-check-" + Guid.NewGuid().ToString("N")[..8]);
        try
        {
            using (new FileStream(probe, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1, FileOptions.DeleteOnClose))
            {
            }
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            throw new BadInputException($"cannot write in '{folder}' ({e.Message.Split('\n')[0].TrimEnd('.')}); choose a writable -o", given);
        }
    }
}
