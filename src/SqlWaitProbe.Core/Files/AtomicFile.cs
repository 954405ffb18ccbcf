using System.Text;

namespace SqlWaitProbe.Core.Files;

/// <summary>
/// Writes a file so that readers see either the old file or the complete new one, never a partial file that looks
/// complete: the content goes to a temporary file next to the target (same folder, so the move is a rename on the
/// same file system), which is then moved over the target. On any failure, including a full disk, the temporary
/// file is deleted before the error propagates, so no <c>.tmp</c> is left behind.
/// </summary>
public static class AtomicFile
{
    /// <summary>The suffix of temporary files; readers and hashing skip files that end with it.</summary>
    public const string TempSuffix = ".tmp";

    private static readonly UTF8Encoding Utf8NoBom = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Writes <paramref name="text"/> (UTF-8, no byte-order mark) to <paramref name="path"/>.</summary>
    public static void WriteAllText(string path, string text) =>
        Write(path, stream =>
        {
            using var writer = new StreamWriter(stream, Utf8NoBom, leaveOpen: true);
            writer.Write(text);
        });

    /// <summary>Writes <paramref name="path"/> through <paramref name="write"/>, which gets the temporary file's stream.</summary>
    public static void Write(string path, Action<Stream> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        var temp = TempPath(path);
        try
        {
            using (var stream = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None))
            {
                write(stream);
            }

            File.Move(temp, path, overwrite: true);
        }
        catch
        {
            TryDelete(temp);
            throw;
        }
    }

    /// <summary>Writes <paramref name="path"/> through <paramref name="write"/>, which gets the temporary file's stream.</summary>
    public static async Task WriteAsync(string path, Func<Stream, CancellationToken, Task> write, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(write);
        var temp = TempPath(path);
        try
        {
            await using (var stream = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None, 64 * 1024, useAsync: true))
            {
                await write(stream, cancellationToken).ConfigureAwait(false);
            }

            File.Move(temp, path, overwrite: true);
        }
        catch
        {
            TryDelete(temp);
            throw;
        }
    }

    // Unique per write, so two writers of one target never share a temporary file.
    private static string TempPath(string path) =>
        $"{path}.{Guid.NewGuid().ToString("N")[..8]}{TempSuffix}";

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The original error is the one to report; a temp file that cannot be deleted is not worse.
        }
    }
}
