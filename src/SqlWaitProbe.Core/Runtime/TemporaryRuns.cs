using System.Runtime.InteropServices;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// Scratch space of <c>analyze</c>, <c>pack</c> and the stack verbs (an extracted zip, a redacted copy, a zip being
/// written): a run folder in the private <see cref="RuntimeFolder"/>, deleted when the work ends, at once on SIGINT or
/// SIGTERM, and at process exit. Each scratch run holds its own signal and exit registrations for as long as it lives,
/// so nothing process-wide keeps a list of them. After a <c>kill -9</c> its owner marker makes it a leftover that
/// <c>probe cleanup</c> removes.
/// </summary>
public static class TemporaryRuns
{
    private static volatile bool _deletedOnSignal;

    /// <summary>
    /// True once SIGINT or SIGTERM deleted scratch of a command that may still be running: whatever that command fails
    /// with from then on (a file gone from under it, a zip's manifest gone before it was read) is the interruption.
    /// </summary>
    public static bool DeletedOnSignal => _deletedOnSignal;

    /// <summary>A new scratch run of <paramref name="kind"/> (analyze, pack, stacks); <see cref="End"/> removes it.</summary>
    public static RunFolder Begin(string kind)
    {
        var run = RuntimeFolder.Run(kind, Guid.NewGuid().ToString("N")[..10]);
        run.Guard = new Guard(run);
        return run;
    }

    /// <summary>Deletes a scratch run: the files it recorded outside its folder (while still the ones it made), then the folder.</summary>
    public static void End(RunFolder run)
    {
        ArgumentNullException.ThrowIfNull(run);
        run.Guard?.Dispose();
        run.Guard = null;
        DeleteQuietly(run);
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

    // Deletes the run on SIGINT, SIGTERM or exit while it lives; whatever else handles the signal (cancelling the
    // command) still runs, in an order the runtime does not promise: the command line's handler (which cancels the
    // command and waits for it) may come after this one. Then a worker may still be writing into the folder, which
    // keeps its owner marker until the command's own end removes it, and what the command fails with meanwhile is
    // reported as the interruption (DeletedOnSignal).
    private sealed class Guard : IDisposable
    {
        private readonly RunFolder _run;
        private readonly PosixSignalRegistration[] _signals;

        public Guard(RunFolder run)
        {
            _run = run;
            _signals =
            [
                PosixSignalRegistration.Create(PosixSignal.SIGINT, _ => OnSignal(run)),
                PosixSignalRegistration.Create(PosixSignal.SIGTERM, _ => OnSignal(run)),
            ];
            AppDomain.CurrentDomain.ProcessExit += OnExit;
        }

        public void Dispose()
        {
            AppDomain.CurrentDomain.ProcessExit -= OnExit;
            foreach (var signal in _signals)
            {
                signal.Dispose();
            }
        }

        private static void OnSignal(RunFolder run)
        {
            // Said before the first file goes, so a command that trips over the deletion already reads as interrupted.
            _deletedOnSignal = true;
            DeleteQuietly(run);
        }

        private void OnExit(object? sender, EventArgs e) => DeleteQuietly(_run);
    }
}
