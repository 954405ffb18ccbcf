namespace SqlWaitProbe.Core.Workloads;

/// <summary>A database prepared for one workload: opens the sessions the driver runs.</summary>
public interface IWorkloadTarget : IAsyncDisposable
{
    /// <summary>Creates or reuses the workload's tables and data (idempotent).</summary>
    Task PrepareAsync(IProgress<string> progress, CancellationToken cancellationToken);

    /// <summary>Opens one dedicated connection for driver session <paramref name="session"/> (1-based).</summary>
    Task<IWorkloadSession> OpenSessionAsync(int session, CancellationToken cancellationToken);
}
