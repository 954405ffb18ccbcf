using System.Diagnostics;
using SqlWaitProbe.Core.Capture;

namespace SqlWaitProbe.Workload.Driver;

/// <summary>
/// One phase of the workload driver: every session runs its own loop on its own connection, all held behind
/// a barrier until <see cref="Release"/>, then until <see cref="Stop"/>, an iteration count, or cancellation.
/// Executions are recorded into per-session <see cref="ExecutionBuffer"/>s; the hot path takes no lock and
/// does no I/O. Sessions that block (<see cref="SessionIo.BlockingThread"/>) get a dedicated thread each;
/// asynchronous sessions are awaited and hold no thread while the server works.
/// </summary>
public sealed class DriverRun
{
    private readonly ManualResetEventSlim _barrier = new(false);
    private readonly TaskCompletionSource _released = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Task[] _loops;
    private volatile bool _stopping;
    private long _releaseTimestamp;

    private DriverRun(IReadOnlyList<IWorkloadSession> sessions, long? iterationsPerSession, CancellationToken cancellationToken)
    {
        Buffers = sessions.Select(_ => new ExecutionBuffer()).ToArray();
        _loops = new Task[sessions.Count];
        for (var i = 0; i < sessions.Count; i++)
        {
            var session = sessions[i];
            var buffer = Buffers[i];
            _loops[i] = session.Io == SessionIo.Asynchronous
                ? Task.Run(() => LoopAsync(session, buffer, iterationsPerSession, cancellationToken), CancellationToken.None)

                // One dedicated thread per blocking session: it never hops threads and never starves the pool.
                : Task.Factory.StartNew(() => Loop(session, buffer, iterationsPerSession, cancellationToken), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        }
    }

    /// <summary>Per-session execution buffers, in session order (session 1 first).</summary>
    public IReadOnlyList<ExecutionBuffer> Buffers { get; }

    /// <summary>The <see cref="Stopwatch"/> timestamp at which the barrier released, or 0 before.</summary>
    public long ReleaseTimestamp => Interlocked.Read(ref _releaseTimestamp);

    /// <summary>Executions completed so far in all sessions (read without locking).</summary>
    public long Completed => Buffers.Sum(b => b.Count);

    /// <summary>Completes when every session loop has ended.</summary>
    public Task Completion => Task.WhenAll(_loops);

    /// <summary>Starts the session loops, each waiting at the barrier.</summary>
    public static DriverRun Start(IReadOnlyList<IWorkloadSession> sessions, long? iterationsPerSession, CancellationToken cancellationToken) =>
        new(sessions, iterationsPerSession, cancellationToken);

    /// <summary>Releases every session at once; returns the release timestamp.</summary>
    public long Release()
    {
        var now = Stopwatch.GetTimestamp();
        Interlocked.Exchange(ref _releaseTimestamp, now);
        _barrier.Set();
        _released.TrySetResult();
        return now;
    }

    /// <summary>Asks every session to stop after its current execution.</summary>
    public void Stop()
    {
        _stopping = true;
        _barrier.Set();
        _released.TrySetResult();
    }

    private void Loop(IWorkloadSession session, ExecutionBuffer buffer, long? iterations, CancellationToken cancellationToken)
    {
        try
        {
            _barrier.Wait(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            return;
        }

        long done = 0;
        var consecutiveErrors = 0;
        while (!_stopping && !cancellationToken.IsCancellationRequested && (iterations is null || done < iterations))
        {
            var start = Stopwatch.GetTimestamp();
            try
            {
                var pending = session.ExecuteAsync(cancellationToken);
                var rows = pending.IsCompletedSuccessfully ? pending.Result : pending.AsTask().GetAwaiter().GetResult();
                buffer.Add(new ExecutionRecord(start, Stopwatch.GetTimestamp(), rows, null));
                consecutiveErrors = 0;
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested)
            {
                buffer.Add(new ExecutionRecord(start, Stopwatch.GetTimestamp(), 0, FirstLine(e.Message)));
                consecutiveErrors++;

                // A broken connection fails instantly; back off so it does not spin a CPU the server needs.
                Thread.Sleep(Math.Min(1000, 10 * consecutiveErrors));
            }
            catch (Exception)
            {
                // The error was caused by the interruption itself: the loop simply ends.
                return;
            }

            done++;
        }
    }

    private async Task LoopAsync(IWorkloadSession session, ExecutionBuffer buffer, long? iterations, CancellationToken cancellationToken)
    {
        try
        {
            await _released.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            return;
        }

        long done = 0;
        var consecutiveErrors = 0;
        while (!_stopping && !cancellationToken.IsCancellationRequested && (iterations is null || done < iterations))
        {
            var start = Stopwatch.GetTimestamp();
            try
            {
                var rows = await session.ExecuteAsync(cancellationToken).ConfigureAwait(false);
                buffer.Add(new ExecutionRecord(start, Stopwatch.GetTimestamp(), rows, null));
                consecutiveErrors = 0;
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested)
            {
                buffer.Add(new ExecutionRecord(start, Stopwatch.GetTimestamp(), 0, FirstLine(e.Message)));
                consecutiveErrors++;
                try
                {
                    await Task.Delay(Math.Min(1000, 10 * consecutiveErrors), cancellationToken).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
            catch (Exception)
            {
                return;
            }

            done++;
        }
    }

    private static string FirstLine(string message)
    {
        var newline = message.IndexOfAny(['\r', '\n']);
        return newline < 0 ? message : message[..newline];
    }
}
