namespace SqlWaitProbe.Core.Capture;

/// <summary>One workload connection; the driver calls <see cref="ExecuteAsync"/> in a loop.</summary>
public interface IWorkloadSession : IAsyncDisposable
{
    /// <summary>How the server sees this connection.</summary>
    WorkloadSessionInfo Info { get; }

    /// <summary>Runs the workload query once and returns the rows it read or wrote.</summary>
    ValueTask<long> ExecuteAsync(CancellationToken cancellationToken);
}
