namespace SqlWaitProbe.Analysis.Statements;

/// <summary>What a phase's bundle files say about statements: the session samples, texts, counters and plans.</summary>
public sealed record StatementInput
{
    /// <summary>activity.csv, in file order (time order per session); empty when absent.</summary>
    public IReadOnlyList<ActivitySample> Activity { get; init; } = [];

    /// <summary>True when activity.csv was captured.</summary>
    public bool ActivityCaptured { get; init; }

    /// <summary>statements/texts.csv: text by key.</summary>
    public IReadOnlyDictionary<string, string> Texts { get; init; } = new Dictionary<string, string>();

    /// <summary>statements/statements.csv, or null when not captured.</summary>
    public IReadOnlyList<StatementStats>? Stats { get; init; }

    /// <summary>Each plan file found, by statement key.</summary>
    public IReadOnlyDictionary<string, PlanSummary> Plans { get; init; } = new Dictionary<string, PlanSummary>();
}
