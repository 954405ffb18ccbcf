using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Core.Tests.Collectors;

/// <summary>The one loop periodic collectors poll on: lost polls are counted and passed over, a poll can end it, a stop is no error.</summary>
public sealed class PollingLoopTests
{
    [Fact]
    public async Task A_lost_poll_is_counted_with_its_message_and_the_loop_goes_on()
    {
        var polls = 0;
        var loop = PollingLoop.Start("test poll", TimeSpan.FromMilliseconds(10), _ =>
        {
            var n = Interlocked.Increment(ref polls);
            return n == 2 ? throw new TimeoutException("the server was slow") : Task.CompletedTask;
        }, e => e is TimeoutException);

        await WaitUntil(() => Volatile.Read(ref polls) >= 5);
        await loop.StopAsync();

        Assert.Equal(1, loop.Failed);
        Assert.Equal("test poll failed: the server was slow", loop.Error);
    }

    [Fact]
    public async Task A_poll_that_returns_false_ends_the_loop()
    {
        var polls = 0;
        var loop = PollingLoop.Start("test poll", TimeSpan.FromMilliseconds(10), _ => Task.FromResult(Interlocked.Increment(ref polls) < 3));

        await WaitUntil(() => Volatile.Read(ref polls) >= 3);
        await Task.Delay(100);
        await loop.StopAsync();

        Assert.Equal(3, Volatile.Read(ref polls));
        Assert.Equal(0, loop.Failed);
    }

    [Fact]
    public async Task An_error_the_collector_does_not_pass_over_comes_out_of_stop()
    {
        // The poll throws synchronously and signals from its finally block. .NET runs exception filters before finally
        // blocks, so once the signal comes the loop has already judged the error a bug (the stop was not yet asked
        // for): the stop cannot race the throw, however late the loop's thread runs on a busy machine. A fixed
        // delay instead of this order let a slow machine reach the stop first, and the stop is then rightly no error.
        var thrown = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Func<CancellationToken, Task<bool>> poll = _ =>
        {
            try
            {
                throw new InvalidOperationException("a bug");
            }
            finally
            {
                thrown.TrySetResult();
            }
        };
        var loop = PollingLoop.Start("test poll", TimeSpan.FromMilliseconds(10), poll, e => e is TimeoutException);

        await thrown.Task.WaitAsync(TimeSpan.FromSeconds(60));

        await Assert.ThrowsAsync<InvalidOperationException>(loop.StopAsync);
    }

    [Fact]
    public async Task A_poll_stopped_part_way_is_not_an_error_and_stop_can_be_called_twice()
    {
        var started = new TaskCompletionSource();
        var loop = PollingLoop.Start("test poll", TimeSpan.FromMilliseconds(10), async token =>
        {
            started.TrySetResult();
            await Task.Delay(Timeout.Infinite, token);
        });

        await started.Task.WaitAsync(TimeSpan.FromSeconds(10));
        await loop.StopAsync();
        await loop.StopAsync();

        Assert.Equal(0, loop.Failed);
        Assert.Null(loop.Error);
    }

    [Fact]
    public async Task A_stop_lets_a_poll_under_way_finish_without_cancelling_it()
    {
        // A database poll cancelled through its token makes Npgsql send a cancel request from the cancelling thread
        // while the socket's event thread waits for that callback: the stop lets the poll end by itself instead.
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var cancelledSeen = false;
        var finished = 0;
        var loop = PollingLoop.Start("test poll", TimeSpan.FromMilliseconds(10), async token =>
        {
            started.TrySetResult();
            await Task.Delay(300, CancellationToken.None);
            cancelledSeen |= token.IsCancellationRequested;
            Interlocked.Increment(ref finished);
        });

        await started.Task.WaitAsync(TimeSpan.FromSeconds(10));
        await loop.StopAsync();

        Assert.Equal(1, Volatile.Read(ref finished));
        Assert.False(cancelledSeen, "the poll's token was cancelled by the stop");
        Assert.Equal(0, loop.Failed);
    }

    [Fact]
    public async Task The_captures_cancellation_ends_the_pacing_but_not_a_poll_under_way()
    {
        using var capture = new CancellationTokenSource();
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var cancelledSeen = false;
        var polls = 0;
        var loop = PollingLoop.Start("test poll", TimeSpan.FromMilliseconds(10), async token =>
        {
            Interlocked.Increment(ref polls);
            started.TrySetResult();
            await Task.Delay(300, CancellationToken.None);
            cancelledSeen |= token.IsCancellationRequested;
        }, cancellationToken: capture.Token);

        await started.Task.WaitAsync(TimeSpan.FromSeconds(10));
        await capture.CancelAsync();
        await loop.StopAsync();

        Assert.False(cancelledSeen, "Ctrl+C cancelled the poll under way");
        Assert.Equal(1, Volatile.Read(ref polls));
    }

    [Fact]
    public async Task A_poll_still_running_past_the_grace_is_cancelled()
    {
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var loop = PollingLoop.Start("test poll", TimeSpan.FromMilliseconds(10), async token =>
        {
            started.TrySetResult();
            await Task.Delay(Timeout.Infinite, token);
        });

        await started.Task.WaitAsync(TimeSpan.FromSeconds(10));
        var clock = System.Diagnostics.Stopwatch.StartNew();
        await loop.StopAsync().WaitAsync(TimeSpan.FromSeconds(60));

        Assert.InRange(clock.Elapsed, PollingLoop.StopGrace - TimeSpan.FromMilliseconds(50), PollingLoop.StopGrace + TimeSpan.FromSeconds(30));
        Assert.Equal(0, loop.Failed);
    }

    [Fact]
    public async Task A_quiet_ring_window_polls_only_at_the_watch_s_polls_and_the_first_poll_that_is_not_quiet_wakes_it()
    {
        // A poll interval long enough that the watch's polls below never go stale between two of them.
        var watch = new WatchRing(new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..8]), TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(5));
        var window = new RingWindow(TimeSpan.FromMilliseconds(20), watch);
        var quiet = new WatchReading(DateTime.UtcNow, []) { Quiet = true };
        watch.Polled(quiet);
        Assert.True(window.Quiet);
        var polls = 0;
        var quietPolls = 0;
        var loop = PollingLoop.Start("test poll", window, TimeSpan.FromMilliseconds(5), _ =>
        {
            Interlocked.Increment(ref polls);
            if (window.Quiet)
            {
                Interlocked.Increment(ref quietPolls);
            }

            return Task.FromResult(true);
        });

        // Each poll of the watch is one poll of the window, however long the wait between them (its own pace would
        // have polled every 5 or 20 ms).
        for (var n = 1; n <= 4; n++)
        {
            await Task.Delay(100);
            Assert.True(Volatile.Read(ref polls) <= n - 1, $"{polls} polls before the watch's poll {n}");
            watch.Polled(quiet with { Utc = DateTime.UtcNow });
            await WaitUntil(() => Volatile.Read(ref polls) >= n);
        }

        Assert.Equal(4, Volatile.Read(ref quietPolls));

        // A session is busy: the window polls at its own pace at once, without waiting for the watch again.
        watch.Polled(new WatchReading(DateTime.UtcNow, [new WatchedSession(7, true, null, null, null, null) { State = "active" }]));
        Assert.False(window.Quiet);
        await WaitUntil(() => Volatile.Read(ref polls) >= 4 + 10);
        await loop.StopAsync();
        Assert.Equal(4, Volatile.Read(ref quietPolls));
        Assert.Equal(0, loop.Failed);
    }

    [Fact]
    public async Task A_watch_poll_goes_stale_after_two_intervals_and_a_trigger_s_choice_ends_the_quiet()
    {
        var watch = new WatchRing(new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..8]), TimeSpan.FromSeconds(10), TimeSpan.FromMilliseconds(100));
        var window = new RingWindow(TimeSpan.FromMilliseconds(100), watch);
        watch.Polled(new WatchReading(DateTime.UtcNow, []) { Quiet = true });
        var polled = Environment.TickCount64;
        Assert.True(window.Quiet || Environment.TickCount64 - polled > 200);
        await watch.NextPollAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(20));
        Assert.True(Environment.TickCount64 - polled >= 150, "the wait for the next poll ended before the last one went stale");
        Assert.False(window.Quiet);
        Assert.Null(watch.QuietReading);

        watch.Polled(new WatchReading(DateTime.UtcNow, []) { Quiet = true });
        window.Chosen = true;
        Assert.False(window.Quiet);
        Assert.Contains("with the triggers' poll", window.Describe(TimeSpan.FromMilliseconds(10)), StringComparison.Ordinal);
    }

    [Fact]
    public void A_watch_window_samples_active_sessions_at_50_ms_until_a_trigger_chooses_it_then_at_the_fast_pace()
    {
        var watch = new WatchRing(new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..8]), TimeSpan.FromSeconds(10), TimeSpan.FromMilliseconds(200));
        var window = new RingWindow(TimeSpan.FromMilliseconds(100), watch);
        var fast = TimeSpan.FromMilliseconds(10);

        Assert.Equal(TimeSpan.FromMilliseconds(100), window.Interval(fast));
        window.SessionsActive = true;
        Assert.Equal(TimeSpan.FromMilliseconds(50), window.Interval(fast));
        window.Chosen = true;
        Assert.Equal(fast, window.Interval(fast));
        Assert.Contains("every 50 ms while a watched session is active, every 10 ms after a trigger", window.Describe(fast), StringComparison.Ordinal);

        // A window of no watch (an attach capture's) keeps the fast pace while a session is active.
        var own = new RingWindow(TimeSpan.FromMilliseconds(100)) { SessionsActive = true };
        Assert.Equal(fast, own.Interval(fast));
    }

    private static async Task WaitUntil(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (!condition())
        {
            Assert.True(DateTime.UtcNow < deadline, "the loop did not poll in time");
            await Task.Delay(10);
        }
    }
}
