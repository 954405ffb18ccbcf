using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>What the ETW collector needs to know about the capture.</summary>
public sealed record EtwCaptureSettings
{
    /// <summary>The capture's run id; the session is named <c>SqlWaitProbe-&lt;runId&gt;</c>.</summary>
    public required string RunId { get; init; }

    /// <summary>Profile interval in milliseconds (see <see cref="Selection.CpuCollectorSelector.EtwIntervalMSec"/>).</summary>
    public double IntervalMSec { get; init; } = Selection.CpuCollectorSelector.DefaultEtwIntervalMSec;

    /// <summary>Process name of the database server, whose modules get symbols first.</summary>
    public string ServerProcess { get; init; } = "sqlservr";

    /// <summary>Where symbols come from; null to keep module-level frames only.</summary>
    public SymbolOptions? Symbols { get; init; }

    /// <summary>Most modules to load symbols for.</summary>
    public int MaxSymbolModules { get; init; } = SymbolResolutionPlan.DefaultMaxModules;

    /// <summary>Folder for the raw trace while recording (default: the temporary folder).</summary>
    public string? WorkFolder { get; init; }
}
