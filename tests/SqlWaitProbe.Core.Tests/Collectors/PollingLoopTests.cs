using SqlWaitProbe.Core.Collectors;

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
