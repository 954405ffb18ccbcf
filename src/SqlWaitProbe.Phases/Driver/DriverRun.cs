using System.Diagnostics;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Phases.Driver;

/// <summary>
/// One phase of the workload driver: every session runs its own loop on its own connection, all held behind
/// a barrier until <see cref="Release"/>, then until <see cref="Stop"/>, an iteration count, or cancellation.
/// Executions are recorded into per-session <see cref="ExecutionBuffer"/>s; the hot path takes no lock and
/// does no I/O. Sessions that block (<see cref="SessionIo.BlockingThread"/>) get a dedicated thread each;
/// asynchronous sessions are awaited and hold no thread while the server works.
/// </summary>
public sealed class DriverRun
{
    private readonly TaskCompletionSource _released = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Task[] _loops;
    private readonly CancellationTokenSource _cut;
    private volatile bool _stopping;
    private volatile bool _cutOff;
    private long _releaseTimestamp;

    private DriverRun(IReadOnlyList<IWorkloadSession> sessions, Func<int, long?> iterationsOf, CancellationToken cancellationToken)
    {
        Buffers = sessions.Select(_ => new ExecutionBuffer()).ToArray();
        _cut = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _loops = new Task[sessions.Count];
        for (var i = 0; i < sessions.Count; i++)
        {
            var session = sessions[i];
            var buffer = Buffers[i];
            var iterationsPerSession = iterationsOf(i);
            _loops[i] = session.Io == SessionIo.Asynchronous
                ? Task.Run(() => LoopAsync(session, buffer, iterationsPerSession, blocking: false, _cut.Token), CancellationToken.None)

                // One dedicated thread per blocking session: its loop never suspends, so it never hops threads and
                // never starves the pool.
                : Task.Factory.StartNew(() => LoopAsync(session, buffer, iterationsPerSession, blocking: true, _cut.Token), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default).Unwrap();
        }

        Completion = Task.WhenAll(_loops);
    }

    /// <summary>Per-session execution buffers, in session order (session 1 first).</summary>
    public IReadOnlyList<ExecutionBuffer> Buffers { get; }

    /// <summary>The <see cref="Stopwatch"/> timestamp at which the barrier released, or 0 before.</summary>
    public long ReleaseTimestamp => Interlocked.Read(ref _releaseTimestamp);

    /// <summary>Executions completed so far in all sessions (read without locking).</summary>
    public long Completed => Buffers.Sum(b => b.Count);

    /// <summary>Sessions whose loop has not ended: after <see cref="Stop"/>, those still running an execution.</summary>
    public int Running => _loops.Count(t => !t.IsCompleted);

    /// <summary>Completes when every session loop has ended; one task for the run, so callers may compare it with what <c>Task.WhenAny</c> returns.</summary>
    public Task Completion { get; }

    /// <summary>Starts the session loops, each waiting at the barrier.</summary>
    public static DriverRun Start(IReadOnlyList<IWorkloadSession> sessions, long? iterationsPerSession, CancellationToken cancellationToken) =>
        new(sessions, _ => iterationsPerSession, cancellationToken);

    /// <summary>Starts the session loops, each waiting at the barrier; session <c>i</c> (0-based) runs <paramref name="iterationsOf"/>(i) executions (null: until stopped).</summary>
    public static DriverRun StartEach(IReadOnlyList<IWorkloadSession> sessions, Func<int, long?> iterationsOf, CancellationToken cancellationToken) =>
        new(sessions, iterationsOf, cancellationToken);

    /// <summary>Releases every session at once; returns the release timestamp.</summary>
    public long Release()
    {
        var now = Stopwatch.GetTimestamp();
        Interlocked.Exchange(ref _releaseTimestamp, now);
        _released.TrySetResult();
        return now;
    }

    /// <summary>Asks every session to stop after its current execution.</summary>
    public void Stop()
    {
        _stopping = true;
        _released.TrySetResult();
    }

    /// <summary>
    /// Stops every session and cancels the executions still running (on the server too); each is recorded as cancelled,
    /// ending when its cancellation returned, unless the run's own token was cancelled first (an interruption, whose
    /// cancelled executions are left out). Returns how many executions were running.
    /// </summary>
    public async Task<int> CancelRunningAsync()
    {
        var running = Running;
        _stopping = true;
        _cutOff = true;
        _released.TrySetResult();
        await _cut.CancelAsync().ConfigureAwait(false);
        return running;
    }

    /// <summary>
    /// One session's loop. A blocking session (<paramref name="blocking"/>) waits for the barrier, each execution and
    /// each error back-off on its own thread, so this method never suspends; an asynchronous one awaits them.
    /// </summary>
    private async Task LoopAsync(IWorkloadSession session, ExecutionBuffer buffer, long? iterations, bool blocking, CancellationToken cancellationToken)
    {
        try
        {
            if (blocking)
            {
                _released.Task.Wait(cancellationToken);
            }
            else
            {
                await _released.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
            }
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
                var rows = !blocking ? await pending.ConfigureAwait(false)
                    : pending.IsCompletedSuccessfully ? pending.Result : pending.AsTask().GetAwaiter().GetResult();
                buffer.Add(new ExecutionRecord(start, Stopwatch.GetTimestamp(), rows, null));
                consecutiveErrors = 0;
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested)
            {
                buffer.Add(new ExecutionRecord(start, Stopwatch.GetTimestamp(), 0, FirstLine(e.Message)));
                consecutiveErrors++;

                // A broken connection fails instantly; back off so it does not spin a CPU the server needs.
                var backoff = Math.Min(1000, 10 * consecutiveErrors);
                if (blocking)
                {
                    Thread.Sleep(backoff);
                }
                else
                {
                    try
                    {
                        await Task.Delay(backoff, cancellationToken).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException)
                    {
                        return;
                    }
                }
            }
            catch (Exception)
            {
                // The error was caused by the cancellation itself: the loop ends. An execution the driver cut off is
                // recorded (the phase counts its share); one an interruption cancelled is not.
                if (_cutOff)
                {
                    buffer.Add(new ExecutionRecord(start, Stopwatch.GetTimestamp(), 0, null, Cancelled: true));
                }

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
