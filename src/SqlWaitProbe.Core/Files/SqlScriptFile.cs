using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Core.Files;

/// <summary>
/// Reads the SQL file a user names with <c>--sql</c>, for every engine: a regular file of at most
/// <see cref="MaxBytes"/>, so a device (<c>/dev/zero</c>) or a file of gigabytes is one line of bad input instead
/// of reading until memory runs out.
/// </summary>
public static class SqlScriptFile
{
    /// <summary>Largest SQL file read, bytes (a workload query is a few KiB; a generated batch a few MiB).</summary>
    public const long MaxBytes = 16L << 20;

    /// <summary>The file's text, trimmed; bad input when it is missing, not a regular file, too large or empty.</summary>
    public static string Read(string path)
    {
        if (Directory.Exists(path))
        {
            throw new BadInputException("is a folder, not an SQL file", path);
        }

        if (!File.Exists(path))
        {
            throw new BadInputException("no such SQL file", path);
        }

        if (PosixFile.Stat(path) is { IsRegularFile: false })
        {
            throw new BadInputException("is not a regular file (a device, pipe or socket); give a file holding the workload's SQL", path);
        }

        string text;
        try
        {
            using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read);
            if (stream.Length > MaxBytes)
            {
                throw new BadInputException($"the SQL file is {stream.Length >> 20} MiB; a workload's SQL is at most {MaxBytes >> 20} MiB, run once per execution", path);
            }

            using var reader = new StreamReader(stream, AtomicFile.Utf8, detectEncodingFromByteOrderMarks: true);
            text = reader.ReadToEnd().Trim();
        }
        catch (UnauthorizedAccessException)
        {
            throw new BadInputException("cannot be read (permission denied)", path);
        }

        return text.Length == 0 ? throw new BadInputException("the SQL file is empty", path) : text;
    }
}
