namespace SqlWaitProbe.Core.Workloads;

/// <summary>A named workload of the catalog, with the exact SQL it runs.</summary>
public sealed record WorkloadDefinition
{
    /// <summary>Name used on the command line, e.g. <c>hashbytes</c>.</summary>
    public required string Name { get; init; }

    /// <summary><c>postgres</c> or <c>sqlserver</c>.</summary>
    public required string Engine { get; init; }

    /// <summary>One line: what the workload does.</summary>
    public required string Summary { get; init; }

    /// <summary>What the workload is known to show at high concurrency.</summary>
    public required string KnownToShow { get; init; }

    /// <summary>Setup statements, run once, idempotent; <c>{scale}</c>-dependent values already substituted.</summary>
    public required IReadOnlyList<string> Setup { get; init; }

    /// <summary>The statement each session runs per execution.</summary>
    public required string Query { get; init; }

    /// <summary>Statements run once on each new session before the loop (session settings).</summary>
    public IReadOnlyList<string> SessionSetup { get; init; } = [];
}
