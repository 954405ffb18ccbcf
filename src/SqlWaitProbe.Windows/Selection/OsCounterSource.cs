namespace SqlWaitProbe.Windows.Selection;

/// <summary>Where per-second OS counters come from.</summary>
public enum OsCounterSource
{
    /// <summary>Performance Data Helper counters (Windows, perfmon's source).</summary>
    Pdh = 0,
    /// <summary><c>/proc</c> files (Linux).</summary>
    Proc = 1,
}
