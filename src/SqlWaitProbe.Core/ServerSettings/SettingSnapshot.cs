namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>A setting as read from the server before a variant changes it: what is in effect and what restoring it needs.</summary>
/// <param name="Effective">The value in effect, as the server shows it.</param>
/// <param name="Stored">What the server's stored configuration holds, when it can differ from the value in effect
/// (PostgreSQL's <c>postgresql.auto.conf</c> entry, null when there is none; <c>sp_configure</c>'s configured value).</param>
public sealed record SettingSnapshot(string Effective, string? Stored)
{
    /// <summary>
    /// Why this server cannot have the setting changed now and back (an <c>sp_configure</c> option that needs a
    /// restart, a scheduler affinity the probe could not restore exactly); a variant may then only ask for the value
    /// already in effect.
    /// </summary>
    public string? Fixed { get; init; }
}
