namespace SqlWaitProbe.Core.Engines;

/// <summary>
/// The next steps of findings that only the engine's own tools can take further (its session views, how it keeps
/// plans), given by the engine's module so that the finding rules name no engine and a new engine brings its own.
/// </summary>
public sealed record EngineAdvice
{
    /// <summary>
    /// What to do about a session (the engine's id for it) that held a lock others waited for while it sat idle inside
    /// its open transaction: where its client shows, and what makes it commit sooner.
    /// </summary>
    public required Func<string, string> IdleInTransactionBlocker { get; init; }

    /// <summary>What to do first about the statement that took most of the session time when the capture kept no plan of it.</summary>
    public required string StatementWithoutPlan { get; init; }
}
