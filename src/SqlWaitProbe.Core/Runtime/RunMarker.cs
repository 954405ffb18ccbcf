namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// The owner marker of one run folder (<c>owner.json</c>), written before anything else of the run exists: which
/// probe process made it. While that very process runs (same pid, start time and executable) the run is in use.
/// </summary>
public sealed record RunMarker
{
    /// <summary>File name inside the run folder.</summary>
    public const string FileName = "owner.json";

    /// <summary>The run id (a capture's run id, or a fresh one for analyze and pack).</summary>
    public string RunId { get; init; } = "";

    /// <summary>What made it: capture, analyze or pack.</summary>
    public string Kind { get; init; } = "";

    /// <summary>The probe process that owns the run.</summary>
    public ProcessIdentity? Owner { get; init; }

    /// <summary>When the run folder was made (UTC).</summary>
    public DateTime CreatedUtc { get; init; }
}
