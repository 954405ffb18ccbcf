namespace SqlWaitProbe.Core.Bundle;

/// <summary>The experiment a bundle is one variant of (<c>probe experiment</c>): which variant, and the settings it ran with.</summary>
public sealed record BundleExperiment
{
    /// <summary>The experiment file's name.</summary>
    public string File { get; init; } = "";

    /// <summary>The variant's name.</summary>
    public string Variant { get; init; } = "";

    /// <summary>The settings the variant asked for, as written.</summary>
    public IReadOnlyDictionary<string, string> Requested { get; init; } = new Dictionary<string, string>();

    /// <summary>
    /// The settings in effect, read back from the server after they were applied (a session setting from a new session
    /// that ran the variant's <c>SET</c>s), with the startup-only settings every variant records.
    /// </summary>
    public IReadOnlyDictionary<string, string> Effective { get; init; } = new Dictionary<string, string>();

    /// <summary>Background sessions that ran beside the measured work; 0 for none.</summary>
    public int BackgroundSessions { get; init; }

    /// <summary>How the server knew the background sessions: PostgreSQL backend pids, SQL Server session ids.</summary>
    public IReadOnlyList<int> BackgroundSessionIds { get; init; } = [];

    /// <summary>What each background session ran, again and again.</summary>
    public string? BackgroundSql { get; init; }
}
