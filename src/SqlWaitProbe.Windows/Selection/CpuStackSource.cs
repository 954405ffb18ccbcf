namespace SqlWaitProbe.Windows.Selection;

/// <summary>Which collector records CPU sample stacks.</summary>
public enum CpuStackSource
{
    /// <summary>No stacks (<c>--cpu none</c>).</summary>
    None = 0,
    /// <summary>ETW kernel profile sampling through TraceEvent (Windows).</summary>
    Etw = 1,
    /// <summary><c>perf record -a -g</c> (Linux).</summary>
    Perf = 2,
}
