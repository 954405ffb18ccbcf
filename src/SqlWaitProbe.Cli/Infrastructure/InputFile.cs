using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>The check every command runs on a file it is given to read: one line of bad input instead of an exception from the open.</summary>
public static class InputFile
{
    /// <summary>Throws bad input unless <paramref name="path"/> names a file this user can open for reading.</summary>
    public static void Require(string path)
    {
        if (string.IsNullOrWhiteSpace(path))
        {
            throw new BadInputException("the input file name is empty; name a file to read");
        }

        if (Directory.Exists(path))
        {
            throw new BadInputException("is a folder, not a file", path);
        }

        if (!File.Exists(path))
        {
            throw new BadInputException("file not found", path);
        }

        if (Core.Runtime.PosixFile.Stat(path) is { IsRegularFile: false })
        {
            // A pipe is opened once, by its reader; opening it here would take the writer's data or block.
            return;
        }

        try
        {
            using (new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1))
            {
            }
        }
        catch (UnauthorizedAccessException)
        {
            throw new BadInputException("cannot be read (permission denied)", path);
        }
    }
}
