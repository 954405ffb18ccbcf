using System.Globalization;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Capture.Watch;

/// <summary>
/// <c>probe watch --dump DIR</c> from another shell: a request file the running watch looks for at every poll. Only a
/// file whose content is the request's own marker counts; anything else of that name is removed and ignored.
/// </summary>
public static class WatchDumpRequest
{
    /// <summary>The request file's name in the output folder.</summary>
    public const string FileName = ".dump-request";

    private const string Marker = "probe watch dump request";

    /// <summary>Asks the watch writing into <paramref name="folder"/> for a dump; exit 2 when none runs there.</summary>
    public static void Ask(string folder)
    {
        if (!Directory.Exists(folder) || !WatchLock.IsHeld(folder))
        {
            throw new BadInputException($"no probe watch is running on {folder}; start one with probe watch … -o {folder}, or give the -o folder of the running one");
        }

        AtomicFile.WriteAllText(Path.Combine(folder, FileName), Marker + " " + DateTime.UtcNow.ToString("O", CultureInfo.InvariantCulture) + "\n");
    }

    /// <summary>True, once, when a dump was asked for since the last call (the request is consumed).</summary>
    public static bool Take(string folder)
    {
        var path = Path.Combine(folder, FileName);
        if (!File.Exists(path))
        {
            return false;
        }

        try
        {
            var info = new FileInfo(path);
            var asked = info.Length < 256 && File.ReadAllText(path).StartsWith(Marker, StringComparison.Ordinal);
            File.Delete(path);
            return asked;
        }
        catch (IOException)
        {
            return false;
        }
        catch (UnauthorizedAccessException)
        {
            return false;
        }
    }
}
