using System.Text;

namespace SqlWaitProbe.Core.Files;

/// <summary>
/// The one way the probe writes an output file: readers see either the old file or the complete new one, never a
/// partial file that looks complete. The content goes to a hidden, uniquely named temporary file next to the target
/// (same folder, so the move is a rename on one file system), which is then moved over the target. On any failure,
/// a full disk and cancellation included, the temporary file is deleted before the error propagates, so no
/// <c>.tmp</c> is ever left behind and a full disk gets its space back. The target's folder must exist.
/// </summary>
public static class AtomicFile
{
    /// <summary>The suffix of temporary files; bundle hashing and readers skip files that end with it.</summary>
    public const string TempSuffix = ".tmp";

    /// <summary>UTF-8 without a byte-order mark, the encoding of every text file the probe writes.</summary>
    public static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Writes <paramref name="text"/> (UTF-8, no byte-order mark) to <paramref name="path"/>.</summary>
    public static void WriteAllText(string path, string text) => WriteText(path, writer => writer.Write(text));

    /// <summary>Writes <paramref name="bytes"/> to <paramref name="path"/>.</summary>
    public static void WriteAllBytes(string path, byte[] bytes) => Write(path, stream => stream.Write(bytes));

    /// <summary>Writes text through <paramref name="write"/> (UTF-8, no byte-order mark, <c>\n</c> line ends).</summary>
    public static void WriteText(string path, Action<TextWriter> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        Write(path, stream =>
        {
            using var writer = new StreamWriter(stream, Utf8, 1 << 16, leaveOpen: true) { NewLine = "\n" };
            write(writer);
        });
    }

    /// <summary>Writes <paramref name="path"/> through <paramref name="write"/>, which gets the temporary file's stream.</summary>
    public static void Write(string path, Action<Stream> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        Produce(path, temp =>
        {
            using var stream = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16);
            write(stream);
        });
    }

    /// <summary>Writes <paramref name="path"/> through <paramref name="write"/>, which gets the temporary file's stream.</summary>
    public static Task WriteAsync(string path, Func<Stream, CancellationToken, Task> write, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(write);
        return ProduceAsync(path, async temp =>
        {
            await using var stream = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16, useAsync: true);
            await write(stream, cancellationToken).ConfigureAwait(false);
        });
    }

    /// <summary>
    /// For libraries that write to a path themselves (zip archives): <paramref name="produce"/> creates the file at
    /// the temporary path it is given; the result is moved over <paramref name="path"/>.
    /// </summary>
    public static void Produce(string path, Action<string> produce)
    {
        ArgumentNullException.ThrowIfNull(produce);
        var temp = TempPath(path);
        try
        {
            produce(temp);
            File.Move(temp, path, overwrite: true);
        }
        catch
        {
            TryDelete(temp);
            throw;
        }
    }

    /// <summary>The asynchronous form of <see cref="Produce"/>.</summary>
    public static async Task ProduceAsync(string path, Func<string, Task> produce)
    {
        ArgumentNullException.ThrowIfNull(produce);
        var temp = TempPath(path);
        try
        {
            await produce(temp).ConfigureAwait(false);
            File.Move(temp, path, overwrite: true);
        }
        catch
        {
            TryDelete(temp);
            throw;
        }
    }

    // Hidden and unique per write, so two writers of one target never share a temporary file.
    private static string TempPath(string path)
    {
        var full = Path.GetFullPath(path);
        return Path.Combine(Path.GetDirectoryName(full)!, $".{Path.GetFileName(full)}.{Guid.NewGuid().ToString("N")[..8]}{TempSuffix}");
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The original error is the one to report.
        }
    }
}
