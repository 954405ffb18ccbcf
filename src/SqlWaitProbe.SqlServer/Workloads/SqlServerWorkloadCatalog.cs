using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>The SQL Server workloads, written from the facts of the field reports.</summary>
public static class SqlServerWorkloadCatalog
{
    /// <summary>The engine name these workloads carry.</summary>
    public const string Engine = "sqlserver";

    /// <summary>Every SQL Server workload at the given data scale (1 = the size the reports used).</summary>
    public static IReadOnlyList<WorkloadDefinition> Create(double scale) =>
    [
        MemoryWorkloads.Hashbytes(scale),
        ColumnstoreWorkloads.CciInsert(scale),
        ColumnstoreWorkloads.CciEtl(scale),
        ParallelWorkloads.ParallelInsert(scale),
        ParallelWorkloads.SelectInto(scale),
        MemoryWorkloads.BatchHashJoin(scale),
        MemoryWorkloads.RowModeAlloc(scale),
        ParallelWorkloads.HeapScan(scale),
    ];

    /// <summary>The named workload, or a <see cref="BadInputException"/> listing the names.</summary>
    public static WorkloadDefinition Find(string name, double scale)
    {
        var all = Create(scale);
        return all.FirstOrDefault(w => string.Equals(w.Name, name, StringComparison.OrdinalIgnoreCase))
            ?? throw new BadInputException($"no sqlserver workload named '{name}'; choose one of: {string.Join(", ", all.Select(w => w.Name))}");
    }
}
