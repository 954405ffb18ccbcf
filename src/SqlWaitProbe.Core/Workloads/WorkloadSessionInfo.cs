namespace SqlWaitProbe.Core.Workloads;

/// <summary>How one workload connection looks from the server, captured when the connection opens.</summary>
/// <param name="Session">The driver's session number, 1-based.</param>
/// <param name="BackendPid">OS process id of the PostgreSQL backend serving it, when known.</param>
/// <param name="DbSessionId">SQL Server <c>session_id</c> (SPID), when known.</param>
public sealed record WorkloadSessionInfo(int Session, int? BackendPid, int? DbSessionId);
