using System.Globalization;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Capture.Watch;

/// <summary>
/// The one watch on an output folder: an exclusive lock on <c>.watch.lock</c> in it (held while the watch runs, released
/// by the kernel when the process dies), so a second watch on the same folder is refused and <c>probe watch --dump</c>
/// knows whether one runs.
/// </summary>
public sealed class WatchLock : IDisposable
{
    /// <summary>The lock file's name in the output folder.</summary>
    public const string FileName = ".watch.lock";

    private readonly FileStream _stream;

    private WatchLock(FileStream stream) => _stream = stream;

    /// <summary>Takes the lock of <paramref name="folder"/>; exit 2 when another watch holds it.</summary>
    public static WatchLock Take(string folder)
    {
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, FileName);
        try
        {
            var stream = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            stream.SetLength(0);
            var pid = System.Text.Encoding.ASCII.GetBytes(Environment.ProcessId.ToString(CultureInfo.InvariantCulture) + "\n");
            stream.Write(pid);
            stream.Flush();
            return new WatchLock(stream);
        }
        catch (IOException) when (IsHeld(folder))
        {
            throw new BadInputException($"another probe watch is writing into {folder}; stop it first, or give this one another -o folder");
        }
    }

    /// <summary>True when a watch holds the lock of <paramref name="folder"/> now.</summary>
    public static bool IsHeld(string folder)
    {
        var path = Path.Combine(folder, FileName);
        if (!File.Exists(path))
        {
            return false;
        }

        try
        {
            using var probe = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
            return false;
        }
        catch (IOException)
        {
            return true;
        }
        catch (UnauthorizedAccessException)
        {
            return true;
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        var path = _stream.Name;
        _stream.Dispose();
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
        }
    }
}
