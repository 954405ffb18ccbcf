namespace SqlWaitProbe.SqlServer.Commands;

/// <summary>One T-SQL batch the probe sends, with why it sends it (shown in dry runs and logs).</summary>
/// <param name="Purpose">Short label, e.g. <c>version check</c> or <c>snapshot sys.dm_os_wait_stats</c>.</param>
/// <param name="Text">The batch exactly as sent.</param>
/// <param name="Database">The database the batch runs in, or null for the connection's default.</param>
public sealed record SqlStatement(string Purpose, string Text, string? Database = null)
{
    /// <summary>No time limit: the statements whose length is the user's (workload setup and its data, a checkpoint).</summary>
    public const int Unbounded = 0;

    /// <summary>
    /// How long the server may take, in seconds (<see cref="Unbounded"/> for no limit); null for the sink's own limit,
    /// which is short for every control, snapshot and XE statement so a blocked server cannot hang a phase's stop.
    /// </summary>
    public int? TimeoutSeconds { get; init; }
}
