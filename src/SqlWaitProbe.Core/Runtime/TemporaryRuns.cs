using System.Collections.Concurrent;
using System.Runtime.InteropServices;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// Scratch space of <c>analyze</c> and <c>pack</c> (an extracted zip, a redacted copy, a zip being written): a run
/// folder in the private <see cref="RuntimeFolder"/>, deleted when the work ends, at once on SIGINT or SIGTERM, and
/// at process exit. After a <c>kill -9</c> its owner marker makes it a leftover that <c>probe cleanup</c> removes.
/// </summary>
public static class TemporaryRuns
{
    private static readonly ConcurrentDictionary<RunFolder, byte> Live = new();
    private static readonly Lock Gate = new();
    private static PosixSignalRegistration[]? _registrations;

    /// <summary>A new scratch run of <paramref name="kind"/> (analyze, pack).</summary>
    public static RunFolder Begin(string kind)
    {
        WatchSignals();
        var run = RuntimeFolder.Run(kind, Guid.NewGuid().ToString("N")[..10]);
        Live[run] = 0;
        return run;
    }

    /// <summary>Deletes a scratch run: the files it recorded outside its folder (while still the ones it made), then the folder.</summary>
    public static void End(RunFolder run)
    {
        Live.TryRemove(run, out _);
        DeleteQuietly(run);
    }

    private static void WatchSignals()
    {
        lock (Gate)
        {
            if (_registrations is not null)
            {
                return;
            }

            // The handlers only delete; whatever else handles the signal (cancelling the command) still runs.
            _registrations =
            [
                PosixSignalRegistration.Create(PosixSignal.SIGINT, _ => DeleteAll()),
                PosixSignalRegistration.Create(PosixSignal.SIGTERM, _ => DeleteAll()),
            ];
            AppDomain.CurrentDomain.ProcessExit += (_, _) => DeleteAll();
        }
    }

    private static void DeleteAll()
    {
        foreach (var run in Live.Keys)
        {
            DeleteQuietly(run);
        }
    }

    private static void DeleteQuietly(RunFolder run)
    {
        try
        {
            foreach (var file in Directory.Exists(run.Path) ? Directory.GetFiles(run.Path, RunFolder.ResourcePrefix + "*.json") : [])
            {
                if (TrustedJson.Read<RunResource>(file) is { Path: { } path } resource && RuntimeCleaner.IsRecordedPath(resource))
                {
                    File.Delete(path);
                }
            }

            run.Dispose();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Still being written by a worker thread: the next attempt (dispose, exit, or probe cleanup) removes it.
        }
    }
}
