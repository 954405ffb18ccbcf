namespace SqlWaitProbe.SqlServer.Commands;

/// <summary>One T-SQL batch the probe sends, with why it sends it (shown in dry runs and logs).</summary>
/// <param name="Purpose">Short label, e.g. <c>version check</c> or <c>snapshot sys.dm_os_wait_stats</c>.</param>
/// <param name="Text">The batch exactly as sent.</param>
/// <param name="Database">The database the batch runs in, or null for the connection's default.</param>
public sealed record SqlStatement(string Purpose, string Text, string? Database = null);
