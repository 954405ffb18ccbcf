namespace SqlWaitProbe.Core.Bundle;

/// <summary>The phase names of the bundle contract (docs/bundle-format.md); a sweep names its phases by thread count.</summary>
public static class PhaseNames
{
    /// <summary>The 1-session reference phase.</summary>
    public const string Baseline = "baseline";

    /// <summary>The N-session phase of a single-level run.</summary>
    public const string Load = "load";

    /// <summary>The one window of an attach-mode capture (also the manifest's workload name then).</summary>
    public const string Attach = "attach";
}
