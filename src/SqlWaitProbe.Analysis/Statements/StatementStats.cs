namespace SqlWaitProbe.Analysis.Statements;

/// <summary>One row of statements/statements.csv: a statement's counters over the phase, all sessions together.</summary>
public sealed record StatementStats
{
    /// <summary>The statement's key.</summary>
    public required string Key { get; init; }

    /// <summary>The server's statement id.</summary>
    public string? QueryId { get; init; }

    /// <summary>The plan shape's id (SQL Server <c>query_plan_hash</c>).</summary>
    public string? PlanHash { get; init; }

    /// <summary>The text as the statistics keep it.</summary>
    public string Text { get; init; } = "";

    /// <summary>Executions finished in the phase.</summary>
    public double Executions { get; init; }

    /// <summary>Their elapsed ms.</summary>
    public double ElapsedMs { get; init; }

    /// <summary>CPU ms when the server measures it per statement.</summary>
    public double? CpuMs { get; init; }

    /// <summary>Rows returned or affected over the phase, as the server counts them.</summary>
    public double Rows { get; init; }

    /// <summary>Pages read from the buffer pool.</summary>
    public double? LogicalReads { get; init; }

    /// <summary>Pages read from storage.</summary>
    public double? PhysicalReads { get; init; }

    /// <summary>Pages written.</summary>
    public double? PageWrites { get; init; }

    /// <summary>Pages spilled to temporary storage.</summary>
    public double? SpillPages { get; init; }

    /// <summary>Memory grant asked for, KB.</summary>
    public double? GrantRequestedKb { get; init; }

    /// <summary>Memory grant given, KB.</summary>
    public double? GrantGrantedKb { get; init; }

    /// <summary>Memory grant used, KB.</summary>
    public double? GrantUsedKb { get; init; }

    /// <summary>Largest grant since the plan was cached, KB.</summary>
    public double? GrantMaxKb { get; init; }

    /// <summary>Degree of parallelism used.</summary>
    public double? Dop { get; init; }
}
