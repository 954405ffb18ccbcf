namespace SqlWaitProbe.Core.Workloads;

/// <summary>One workload connection; the driver calls <see cref="ExecuteAsync"/> in a loop.</summary>
public interface IWorkloadSession : IAsyncDisposable
{
    /// <summary>How the server sees this connection.</summary>
    WorkloadSessionInfo Info { get; }

    /// <summary>
    /// How the driver should run this session: <see cref="SessionIo.BlockingThread"/> (a dedicated thread that
    /// waits for each execution; for client libraries whose synchronous path is the cheap one) or
    /// <see cref="SessionIo.Asynchronous"/> (awaited; for client libraries with true asynchronous I/O, so a few
    /// threads serve many sessions).
    /// </summary>
    SessionIo Io => SessionIo.BlockingThread;

    /// <summary>Runs the workload query once and returns the rows it read or wrote.</summary>
    ValueTask<long> ExecuteAsync(CancellationToken cancellationToken);
}

/// <summary>How a workload session's executions are driven.</summary>
public enum SessionIo
{
    /// <summary>One dedicated thread per session; <see cref="IWorkloadSession.ExecuteAsync"/> usually completes synchronously.</summary>
    BlockingThread,

    /// <summary><see cref="IWorkloadSession.ExecuteAsync"/> is awaited; no thread is held while the server works.</summary>
    Asynchronous,
}
