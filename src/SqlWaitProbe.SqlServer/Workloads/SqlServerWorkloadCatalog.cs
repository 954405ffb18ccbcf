using SqlWaitProbe.Core.Capture;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>The SQL Server workloads, written from the facts of the field reports.</summary>
public static class SqlServerWorkloadCatalog
{
    /// <summary>Every SQL Server workload at the given data scale (1 = the size the reports used).</summary>
    public static IReadOnlyList<WorkloadDefinition> Create(double scale) => [];
}
