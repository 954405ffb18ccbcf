namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// The one loop every periodic collector runs on: a poll every interval on a background task until stopped. The timer
/// starts when the loop does, before the first await, so a busy thread pool cannot shift the ticks. A poll that fails in
/// a way its collector calls a lost poll is counted, its message kept, and the loop goes on: one lost poll only leaves a
/// gap the next one covers. A poll that returns false ends the loop (its collector has said why).
/// </summary>
/// <remarks>
/// A stop, or the capture's cancellation, ends the pacing at once but lets a poll under way finish: its token is
/// cancelled only when it is still running <see cref="StopGrace"/> after the stop. Npgsql answers a cancelled token with
/// a synchronous cancel request on a new connection, while the event thread reading the query's reply (completions run
/// inline in a PostgreSQL capture) waits for that callback to end: when the cancel connection's socket belonged to the
/// same event thread, neither could go on until the connection timeout, and every session served by that thread
/// stood still with them (executions of 80 ms ended 15 s after the phase, Ctrl+C overran its grace).
/// </remarks>
public sealed class PollingLoop
{
    /// <summary>How long a stop waits for a poll under way before cancelling it.</summary>
    public static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(2);

    private readonly string _what;
    private readonly CancellationTokenSource _stop;
    private readonly CancellationTokenSource _abort = new();
    private Task? _task;
    private int _failed;
    private int _stopped;

    private PollingLoop(string what, CancellationToken cancellationToken)
    {
        _what = what;
        _stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
    }

    /// <summary>Polls that failed and were passed over.</summary>
    public int Failed => Volatile.Read(ref _failed);

    /// <summary>The last lost poll, as <c>WHAT failed: message</c>, or null.</summary>
    public string? Error { get; private set; }

    /// <summary>
    /// Starts polling with <paramref name="poll"/> every <paramref name="interval"/>; <paramref name="what"/> names it in
    /// errors. <paramref name="lostPoll"/> says which exceptions only lose one poll (it may log them); any other ends the
    /// loop and comes out of <see cref="StopAsync"/>.
    /// </summary>
    public static PollingLoop Start(string what, TimeSpan interval, Func<CancellationToken, Task<bool>> poll, Func<Exception, bool>? lostPoll = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(poll);
        return Start(what, () => interval, poll, lostPoll, cancellationToken);
    }

    /// <summary>
    /// As <see cref="Start(string, TimeSpan, Func{CancellationToken, Task{bool}}, Func{Exception, bool}?, CancellationToken)"/>,
    /// at an interval read again after each poll (a watch's sampler slows down while nothing happens).
    /// </summary>
    public static PollingLoop Start(string what, Func<TimeSpan> interval, Func<CancellationToken, Task<bool>> poll, Func<Exception, bool>? lostPoll = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(interval);
        ArgumentNullException.ThrowIfNull(poll);
        var loop = new PollingLoop(what, cancellationToken);
        loop._task = loop.RunAsync(interval, poll, lostPoll ?? (static _ => false), loop._stop.Token);
        return loop;
    }

    /// <summary>
    /// A session sampler of a watch's ring window: every <paramref name="fast"/> (or the window's idle interval, see
    /// <see cref="RingWindow.Interval"/>), but while the window is <see cref="RingWindow.Quiet"/> its own timer is
    /// paused and it polls at the watch's poll instead: one timer drives every quiet sampler of every window, and the
    /// first poll that is not quiet wakes it to its own pace at once. A window of no watch polls as the
    /// <see cref="Func{TResult}"/> overload does.
    /// </summary>
    public static PollingLoop Start(string what, RingWindow ring, TimeSpan fast, Func<CancellationToken, Task<bool>> poll, Func<Exception, bool>? lostPoll = null)
    {
        ArgumentNullException.ThrowIfNull(ring);
        ArgumentNullException.ThrowIfNull(poll);
        if (ring.Watch is not { } watch)
        {
            return Start(what, () => ring.Interval(fast), poll, lostPoll);
        }

        var loop = new PollingLoop(what, CancellationToken.None);
        loop._task = loop.RunPacedAsync(ring, watch, fast, poll, lostPoll ?? (static _ => false), loop._stop.Token);
        return loop;
    }

    /// <summary>As <see cref="Start(string, TimeSpan, Func{CancellationToken, Task{bool}}, Func{Exception, bool}?, CancellationToken)"/>, for a poll that never ends the loop itself.</summary>
    public static PollingLoop Start(string what, TimeSpan interval, Func<CancellationToken, Task> poll, Func<Exception, bool>? lostPoll = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(poll);
        return Start(what, interval, async token =>
        {
            await poll(token);
            return true;
        }, lostPoll, cancellationToken);
    }

    /// <summary>
    /// Stops the loop and waits for a poll under way, cancelling it only when it runs past <see cref="StopGrace"/>; what
    /// the loop saw stays. A poll cancelled part way is not an error: collectors take a closing reading of their own
    /// where they need one.
    /// </summary>
    public async Task StopAsync()
    {
        if (Interlocked.Exchange(ref _stopped, 1) == 1)
        {
            return;
        }

        await _stop.CancelAsync();
        if (await Task.WhenAny(_task!, Task.Delay(StopGrace, CancellationToken.None)) != _task)
        {
            await _abort.CancelAsync();
        }

        try
        {
            await _task!;
        }
        catch (OperationCanceledException)
        {
        }

        _stop.Dispose();
        _abort.Dispose();
    }

    private async Task RunAsync(Func<TimeSpan> interval, Func<CancellationToken, Task<bool>> poll, Func<Exception, bool> lostPoll, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval());
        while (await timer.WaitForNextTickAsync(cancellationToken))
        {
            if (interval() is var next && next != timer.Period)
            {
                timer.Period = next;
            }

            if (!await PollOnceAsync(poll, lostPoll, _abort.Token))
            {
                return;
            }
        }
    }

    private async Task RunPacedAsync(RingWindow ring, WatchRing watch, TimeSpan fast, Func<CancellationToken, Task<bool>> poll, Func<Exception, bool> lostPoll, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(ring.Interval(fast));
        var paused = false;
        while (true)
        {
            if (ring.Quiet)
            {
                // An infinite period stops the timer's own ticks: while quiet nothing wakes this loop but the watch's poll.
                if (!paused)
                {
                    timer.Period = Timeout.InfiniteTimeSpan;
                    paused = true;
                }

                await watch.NextPollAsync(cancellationToken);
                if (!ring.Quiet)
                {
                    // Woken: this poll is the first of its own pace, the timer's next one an interval later.
                    timer.Period = ring.Interval(fast);
                    paused = false;
                }
            }
            else
            {
                if (paused)
                {
                    timer.Period = ring.Interval(fast);
                    paused = false;
                }
                else if (!await timer.WaitForNextTickAsync(cancellationToken))
                {
                    return;
                }
                else if (ring.Interval(fast) is var next && next != timer.Period)
                {
                    timer.Period = next;
                }
            }

            if (!await PollOnceAsync(poll, lostPoll, _abort.Token))
            {
                return;
            }
        }
    }

    /// <summary>One poll, with the token that is cancelled only past a stop's grace; false when the loop ends (the poll said so, or it was cancelled part way).</summary>
    private async Task<bool> PollOnceAsync(Func<CancellationToken, Task<bool>> poll, Func<Exception, bool> lostPoll, CancellationToken cancellationToken)
    {
        try
        {
            return await poll(cancellationToken);
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested && e is not OperationCanceledException && lostPoll(e))
        {
            Interlocked.Increment(ref _failed);
            Error = $"{_what} failed: {e.Message}";
            return true;
        }
        catch (Exception) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped mid-poll: the error is the stop's, not the server's.
            return false;
        }
    }
}
