namespace SqlWaitProbe.Analysis.Statements;

/// <summary>What a plan file says that a reader of the report needs, whichever engine wrote it.</summary>
public sealed record PlanSummary
{
    /// <summary>The plan file, relative to the bundle.</summary>
    public required string File { get; init; }

    /// <summary>Whether the plan holds run-time figures (an actual plan) or only estimates.</summary>
    public bool Actual { get; init; }

    /// <summary>The operators that matter, in plan order.</summary>
    public IReadOnlyList<PlanNote> Notes { get; init; } = [];

    /// <summary>Every operator of the plan by name (with repeats), for comparing two plans.</summary>
    public IReadOnlyList<string> Operators { get; init; } = [];

    /// <summary>Parallel workers the plan asked for, when it is parallel.</summary>
    public int? WorkersPlanned { get; init; }

    /// <summary>Parallel workers it got.</summary>
    public int? WorkersLaunched { get; init; }

    /// <summary>True when an operator spilled to disk.</summary>
    public bool Spills => Notes.Any(n => n.Kind == "spill");

    /// <summary>Why the file could not be read, or null.</summary>
    public string? Problem { get; init; }
}
