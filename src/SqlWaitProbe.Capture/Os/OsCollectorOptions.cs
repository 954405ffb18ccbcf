namespace SqlWaitProbe.Capture.Os;

/// <summary>The user's choices about OS collectors (<c>--cpu</c>, <c>--sample-hz</c>, perf and symbol limits).</summary>
public sealed record OsCollectorOptions
{
    /// <summary><c>perf</c>, <c>etw</c>, <c>none</c>, or null for the platform's default.</summary>
    public string? Cpu { get; init; }

    /// <summary>
    /// Off-CPU stacks unless <c>--offcpu</c> says otherwise: off until their cost is shown to keep throughput at or
    /// above 0.97 (docs/performance.md); the report recommends them when unaccounted time is large.
    /// </summary>
    public const string DefaultOffCpu = "off";

    /// <summary><c>on</c> or <c>off</c>: off-CPU stacks of the sessions' server processes.</summary>
    public string OffCpu { get; init; } = DefaultOffCpu;

    /// <summary>Samples per second per CPU.</summary>
    public int SampleHz { get; init; } = OsCollectorSelector.DefaultPerfHz;

    /// <summary>True when <c>--sample-hz</c> was given; otherwise ETW keeps its own 1 ms default.</summary>
    public bool SampleHzGiven { get; init; }

    /// <summary><c>--call-graph</c>: fp, dwarf, lbr or auto (null: auto).</summary>
    public string? CallGraph { get; init; }

    /// <summary>Length of the longest phase, seconds; null when not known before it runs (<c>--iterations</c>). <c>--call-graph auto</c> bounds DWARF's data by it.</summary>
    public double? PhaseSeconds { get; init; }

    /// <summary>perf data cap per phase, MB.</summary>
    public int MaxPerfMegabytes { get; init; } = 1024;

    /// <summary><c>--symbols</c>: the symbol path for ETW stacks.</summary>
    public string? Symbols { get; init; }

    /// <summary><c>--offline</c>: only cached symbols.</summary>
    public bool Offline { get; init; }
}
