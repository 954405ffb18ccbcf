using SqlWaitProbe.Core.Capture;

namespace SqlWaitProbe.Postgres.Workloads;

/// <summary>The PostgreSQL workloads.</summary>
public static class PostgresWorkloadCatalog
{
    /// <summary>Every PostgreSQL workload at the given data scale.</summary>
    public static IReadOnlyList<WorkloadDefinition> Create(double scale) => [];
}
