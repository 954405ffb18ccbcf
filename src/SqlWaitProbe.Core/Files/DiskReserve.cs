namespace SqlWaitProbe.Core.Files;

/// <summary>
/// Space set aside in a folder at the start of a long write, given back at its end: when the disk fills (faster than
/// the free-space watch, or with the watch off), the closing writes (the final manifest, the last lines of the log)
/// still fit, so a capture on a full disk ends <c>interrupted</c>, reason <c>disk</c>, instead of stuck at
/// <c>running</c>. A hidden file of zeros written for real (not sparse), so the file system has the blocks.
/// </summary>
public sealed class DiskReserve : IDisposable
{
    /// <summary>The reserve's file name; bundle hashing leaves it out.</summary>
    public const string FileName = ".probe-disk-reserve";

    /// <summary>Bytes set aside by default: room for the manifest of a bundle with hundreds of files and the log's last lines.</summary>
    public const int DefaultBytes = 1 << 20;

    private string? _path;

    private DiskReserve(string? path)
    {
        _path = path;
    }

    /// <summary>True while the space is held.</summary>
    public bool Held => _path is not null;

    /// <summary>
    /// Sets aside <paramref name="bytes"/> in <paramref name="folder"/>. A disk already too full for it throws the
    /// disk-full <see cref="IOException"/>, with nothing left behind.
    /// </summary>
    public static DiskReserve Create(string folder, int bytes = DefaultBytes)
    {
        var path = Path.Combine(folder, FileName);
        try
        {
            using var stream = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16);
            var zeros = new byte[1 << 16];
            for (var left = bytes; left > 0; left -= zeros.Length)
            {
                stream.Write(zeros, 0, Math.Min(left, zeros.Length));
            }

            stream.Flush(flushToDisk: true);
        }
        catch (IOException)
        {
            TryDelete(path);
            throw;
        }

        return new DiskReserve(path);
    }

    /// <summary>Gives the space back (deletes the file); safe to call more than once.</summary>
    public void Release()
    {
        if (Interlocked.Exchange(ref _path, null) is { } path)
        {
            TryDelete(path);
        }
    }

    /// <inheritdoc />
    public void Dispose() => Release();

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }
}
