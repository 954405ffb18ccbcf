using System.Globalization;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Capture;

/// <summary>
/// <c>--min-free-disk-mb</c>: a capture refuses to start below the threshold and stops (interrupted, reason
/// <c>disk</c>) when free space on the bundle's file system falls below it while running.
/// </summary>
public static class DiskSpace
{
    /// <summary>How often a running capture checks free space.</summary>
    public static readonly TimeSpan CheckPeriod = TimeSpan.FromSeconds(1);

    /// <summary>Free megabytes on the file system holding <paramref name="path"/> (or its nearest existing parent); null when unknown.</summary>
    public static long? FreeMegabytes(string path)
    {
        var folder = Path.GetFullPath(path);
        while (!Directory.Exists(folder) && Path.GetDirectoryName(folder) is { } parent)
        {
            folder = parent;
        }

        try
        {
            return new DriveInfo(folder).AvailableFreeSpace / (1024 * 1024);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return null;
        }
    }

    /// <summary>Throws <see cref="EnvironmentProblemException"/> (exit 1) when <paramref name="path"/>'s file system has less than <paramref name="minFreeMb"/> MB free.</summary>
    public static void EnsureFree(string path, long minFreeMb)
    {
        if (FreeMegabytes(path) is { } free && free < minFreeMb)
        {
            throw new EnvironmentProblemException(
                string.Create(CultureInfo.InvariantCulture, $"only {free} MB free where the bundle goes ({Path.GetFullPath(path)}); --min-free-disk-mb is {minFreeMb}"),
                "Free some space, write the bundle elsewhere with -o, or lower --min-free-disk-mb.");
        }
    }

    /// <summary>Checks every <see cref="CheckPeriod"/> and calls <paramref name="stop"/> once free space is below the threshold.</summary>
    public static Timer Watch(string path, long minFreeMb, Action stop)
    {
        var stopped = 0;
        return new Timer(_ =>
        {
            if (FreeMegabytes(path) is { } free && free < minFreeMb && Interlocked.Exchange(ref stopped, 1) == 0)
            {
                Serilog.Log.Warning("free disk {Free} MB is below --min-free-disk-mb {Min}: stopping the capture", free, minFreeMb);
                stop();
            }
        }, null, CheckPeriod, CheckPeriod);
    }
}
