using System.Collections.Concurrent;
using System.Diagnostics;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.TestSupport;

/// <summary>A fake in-memory workload target (no database): each execution waits <c>delay</c> and returns one row.</summary>
public sealed class InMemoryFakeTarget(TimeSpan delay, int failEvery = 0, SessionIo io = SessionIo.BlockingThread) : IWorkloadTarget
{
    /// <summary>Stopwatch timestamps of every execution's start, per session.</summary>
    public ConcurrentDictionary<int, ConcurrentQueue<long>> Starts { get; } = new();

    /// <summary>Sessions opened so far.</summary>
    public int Opened;

    /// <inheritdoc />
    public Task PrepareAsync(IProgress<string> progress, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <inheritdoc />
    public Task<IWorkloadSession> OpenSessionAsync(int session, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref Opened);
        var starts = Starts.GetOrAdd(session, _ => new ConcurrentQueue<long>());
        return Task.FromResult<IWorkloadSession>(new Session(session, delay, failEvery, io, starts));
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    private sealed class Session(int number, TimeSpan delay, int failEvery, SessionIo io, ConcurrentQueue<long> starts) : IWorkloadSession
    {
        private int _calls;

        public WorkloadSessionInfo Info { get; } = new(number, null, null);

        public SessionIo Io => io;

        public async ValueTask<long> ExecuteAsync(CancellationToken cancellationToken)
        {
            starts.Enqueue(Stopwatch.GetTimestamp());
            await Task.Delay(delay, cancellationToken);
            if (failEvery > 0 && ++_calls % failEvery == 0)
            {
                throw new InvalidOperationException("fake failure\nsecond line");
            }

            return 1;
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
