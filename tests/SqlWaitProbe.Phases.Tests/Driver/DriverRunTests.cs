using SqlWaitProbe.TestSupport;
using System.Diagnostics;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Phases.Driver;
using SqlWaitProbe.Phases.Tests.Fakes;

namespace SqlWaitProbe.Phases.Tests.Driver;

public sealed class DriverRunTests
{
    [Theory]
    [InlineData(SessionIo.BlockingThread)]
    [InlineData(SessionIo.Asynchronous)]
    public async Task Sessions_wait_at_the_barrier_until_released(SessionIo io)
    {
        var target = new InMemoryFakeTarget(TimeSpan.FromMilliseconds(5), io: io);
        var sessions = await OpenAsync(target, 4);
        var run = DriverRun.Start(sessions, 3, CancellationToken.None);
        await Task.Delay(200);
        Assert.Equal(0, run.Completed);
        Assert.True(target.Starts.IsEmpty || target.Starts.Values.All(q => q.IsEmpty));

        // How late this machine runs a waiting thread meanwhile: on a loaded machine a released session can wait its turn
        // for a CPU, and that wait is the machine's, not the barrier's.
        using var lateness = new ThreadLateness();
        var released = run.Release();
        await run.Completion.WaitAsync(TimeSpan.FromSeconds(10));
        var late = lateness.Stop();

        var firstStarts = target.Starts.Values.Select(q => q.First()).ToArray();
        Assert.Equal(4, firstStarts.Length);
        Assert.All(firstStarts, s => Assert.True(s >= released));
        var spread = Stopwatch.GetElapsedTime(firstStarts.Min(), firstStarts.Max());
        Assert.True(spread < TimeSpan.FromMilliseconds(150) + late, $"sessions should start together: {spread.TotalMilliseconds:0} ms apart, the machine ran a thread up to {late.TotalMilliseconds:0} ms late");
    }

    /// <summary>A thread that sleeps 1 ms at a time and keeps the longest it overslept.</summary>
    private sealed class ThreadLateness : IDisposable
    {
        private readonly Thread _thread;
        private volatile bool _stop;
        private long _worstTicks;

        public ThreadLateness()
        {
            _thread = new Thread(() =>
            {
                while (!_stop)
                {
                    var before = Stopwatch.GetTimestamp();
                    Thread.Sleep(1);
                    var over = Stopwatch.GetTimestamp() - before - Stopwatch.Frequency / 1000;
                    if (over > _worstTicks)
                    {
                        _worstTicks = over;
                    }
                }
            }) { IsBackground = true };
            _thread.Start();
        }

        public TimeSpan Stop()
        {
            _stop = true;
            _thread.Join();
            return TimeSpan.FromSeconds(_worstTicks / (double)Stopwatch.Frequency);
        }

        public void Dispose()
        {
            _stop = true;
        }
    }

    [Theory]
    [InlineData(SessionIo.BlockingThread)]
    [InlineData(SessionIo.Asynchronous)]
    public async Task Iteration_mode_runs_exactly_that_many_per_session(SessionIo io)
    {
        var sessions = await OpenAsync(new InMemoryFakeTarget(TimeSpan.FromMilliseconds(1), io: io), 3);
        var run = DriverRun.Start(sessions, 7, CancellationToken.None);
        run.Release();
        await run.Completion.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.All(run.Buffers, b => Assert.Equal(7, b.Count));
        Assert.All(run.Buffers.SelectMany(b => b.All()), e => Assert.True(e.End >= e.Start && e.Rows == 1 && e.Error is null));
    }

    [Theory]
    [InlineData(SessionIo.BlockingThread)]
    [InlineData(SessionIo.Asynchronous)]
    public async Task Stop_ends_every_session_after_its_current_execution(SessionIo io)
    {
        var sessions = await OpenAsync(new InMemoryFakeTarget(TimeSpan.FromMilliseconds(20), io: io), 2);
        var run = DriverRun.Start(sessions, null, CancellationToken.None);
        run.Release();
        await Task.Delay(300);
        run.Stop();
        var stopped = Stopwatch.GetTimestamp();
        await run.Completion.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.True(Stopwatch.GetElapsedTime(stopped) < TimeSpan.FromSeconds(2));
        var counts = run.Buffers.Select(b => b.Count).ToArray();
        await Task.Delay(100);
        Assert.Equal(counts, run.Buffers.Select(b => b.Count));
        Assert.All(counts, c => Assert.True(c >= 1));
    }

    [Theory]
    [InlineData(SessionIo.BlockingThread)]
    [InlineData(SessionIo.Asynchronous)]
    public async Task Errors_are_recorded_with_their_first_line_and_the_loop_goes_on(SessionIo io)
    {
        var sessions = await OpenAsync(new InMemoryFakeTarget(TimeSpan.FromMilliseconds(1), failEvery: 2, io: io), 1);
        var run = DriverRun.Start(sessions, 6, CancellationToken.None);
        run.Release();
        await run.Completion.WaitAsync(TimeSpan.FromSeconds(10));
        var all = run.Buffers[0].All().ToArray();
        Assert.Equal(6, all.Length);
        Assert.Equal(3, all.Count(e => e.Error == "fake failure"));
    }

    [Theory]
    [InlineData(SessionIo.BlockingThread)]
    [InlineData(SessionIo.Asynchronous)]
    public async Task Cancellation_ends_the_loops_without_throwing(SessionIo io)
    {
        using var cts = new CancellationTokenSource();
        var sessions = await OpenAsync(new InMemoryFakeTarget(TimeSpan.FromSeconds(30), io: io), 2);
        var run = DriverRun.Start(sessions, null, cts.Token);
        run.Release();
        await Task.Delay(100);
        await cts.CancelAsync();
        await run.Completion.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.Equal(0, run.Completed);
    }

    [Fact]
    public async Task Asynchronous_sessions_do_not_take_a_thread_each()
    {
        const int n = 200;
        var before = Process.GetCurrentProcess().Threads.Count;
        var sessions = await OpenAsync(new InMemoryFakeTarget(TimeSpan.FromMilliseconds(20), io: SessionIo.Asynchronous), n);
        var run = DriverRun.Start(sessions, 5, CancellationToken.None);
        run.Release();
        await Task.Delay(50);
        var during = Process.GetCurrentProcess().Threads.Count;
        await run.Completion.WaitAsync(TimeSpan.FromSeconds(20));
        Assert.All(run.Buffers, b => Assert.Equal(5, b.Count));
        Assert.True(during - before < n / 4, $"{n} asynchronous sessions added {during - before} threads");
    }

    [Fact]
    public void Buffer_keeps_every_record_across_chunks()
    {
        var buffer = new ExecutionBuffer();
        var n = ExecutionBuffer.ChunkSize * 2 + 17;
        for (var i = 0; i < n; i++)
        {
            buffer.Add(new ExecutionRecord(i, i + 1, i, null));
        }

        Assert.Equal(n, buffer.Count);
        Assert.Equal(Enumerable.Range(0, n).Select(i => (long)i), buffer.All().Select(e => e.Rows));
    }

    private static async Task<IReadOnlyList<IWorkloadSession>> OpenAsync(InMemoryFakeTarget target, int n)
    {
        var list = new List<IWorkloadSession>();
        for (var i = 1; i <= n; i++)
        {
            list.Add(await target.OpenSessionAsync(i, CancellationToken.None));
        }

        return list;
    }
}
