namespace SqlWaitProbe.Core.Collectors;

/// <summary>When an OS collector starts within a phase, relative to the engine's collectors.</summary>
public enum CollectorStage
{
    /// <summary>Before the engine's collectors: counters and per-session readings.</summary>
    Counters,

    /// <summary>After everything else, so CPU stacks do not sample the other collectors starting.</summary>
    Stacks,
}
