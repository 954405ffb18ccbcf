namespace SqlWaitProbe.Experiments;

/// <summary>How an experiment ended: its variants, and whether everything it changed is back.</summary>
public sealed record ExperimentOutcome
{
    /// <summary>The variants that ran (or began), in order.</summary>
    public required IReadOnlyList<VariantResult> Variants { get; init; }

    /// <summary><c>complete</c>, <c>interrupted</c> or <c>failed</c>.</summary>
    public required string Status { get; init; }

    /// <summary>Why it did not complete, else null.</summary>
    public string? Reason { get; init; }

    /// <summary>Settings not back at their value read before (each a sentence with the restoring statements); empty when all are.</summary>
    public IReadOnlyList<string> NotRestored { get; init; } = [];

    /// <summary>What the user should know beyond the findings (a restore that read back differently, a teardown that failed).</summary>
    public IReadOnlyList<string> Warnings { get; init; } = [];
}
