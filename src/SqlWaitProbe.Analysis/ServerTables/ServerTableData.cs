namespace SqlWaitProbe.Analysis.ServerTables;

/// <summary>The server tables of a phase the report shows beside the ledger (SQL Server): memory clerks and the XE clerk histogram.</summary>
public sealed record ServerTableData
{
    /// <summary>dmv/memory_clerks.csv, or null.</summary>
    public IReadOnlyList<MemoryClerkRow>? Clerks { get; init; }

    /// <summary>xe/clerk_histogram.csv: pages-stream events by clerk (value, count), or null.</summary>
    public IReadOnlyList<(string Clerk, double Count)>? ClerkHistogram { get; init; }
}
