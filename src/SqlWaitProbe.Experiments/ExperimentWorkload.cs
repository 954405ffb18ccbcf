namespace SqlWaitProbe.Experiments;

/// <summary>The fixed work each variant measures: one of a built-in workload, a query (inline or a SQL file) or a stored procedure.</summary>
public sealed record ExperimentWorkload
{
    /// <summary>A built-in workload of the engine (<c>probe workloads list</c>).</summary>
    public string? BuiltIn { get; init; }

    /// <summary>A SQL file holding the query each execution runs (inline SQL is written to the run folder first).</summary>
    public ExperimentScript? Sql { get; init; }

    /// <summary>A stored procedure each execution calls (SQL Server).</summary>
    public string? Procedure { get; init; }

    /// <summary>For the manifest and progress: what runs.</summary>
    public string Describe() => BuiltIn ?? (Procedure is { } p ? "procedure " + p : "SQL of " + Path.GetFileName(Sql!.File) + (Sql.Line > 1 ? $" line {Sql.Line}" : ""));
}
