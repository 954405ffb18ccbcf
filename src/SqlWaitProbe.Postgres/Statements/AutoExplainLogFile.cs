using Npgsql;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// Where auto_explain's plans of a window are: the log file the logging collector writes in the most readable of its
/// formats (jsonlog, csvlog, stderr) and how long it was when the window opened; or why the probe cannot read it over
/// its connection, with what to change.
/// </summary>
/// <param name="Format">The file's format, as <c>log_destination</c> names it.</param>
/// <param name="Path">The file as <c>pg_current_logfile()</c> names it (relative to the data directory, or absolute).</param>
/// <param name="Offset">Its size when the window opened, bytes.</param>
public sealed record AutoExplainLogFile(string Format, string Path, long Offset)
{
    /// <summary>The grant that lets a role read the log's files over a connection.</summary>
    public static string ReadGrantTo(string role) => $"GRANT EXECUTE ON FUNCTION pg_read_binary_file(text, bigint, bigint) TO {role}";

    /// <summary>The connection's role as a statement names it, so that a grant in a message runs as printed.</summary>
    private static string Role(NpgsqlConnection connection) =>
        string.IsNullOrEmpty(connection.UserName) ? "the monitoring role" : Attach.AttachSurvey.QuoteIdentifier(connection.UserName);

    /// <summary>A piece of a log file: bytes <see cref="From"/> to <see cref="To"/> of <see cref="Path"/>.</summary>
    public sealed record Segment(string Path, long From, long To);

    /// <summary>
    /// The log file and its size now, or why it cannot be read: auto_explain off, logs that go elsewhere than a file
    /// the logging collector writes (syslog, eventlog, the server's stderr), or a role without the rights to read them.
    /// </summary>
    public static async Task<(AutoExplainLogFile? File, string? Unreadable)> LocateAsync(NpgsqlConnection connection, string described, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        string collector, destinations;
        string? minDuration;
        // The server's value, not this session's: the probe's own session turns auto_explain off for itself.
        await using (var settings = new NpgsqlCommand(PgMonitorSql.Marked(
            "SELECT current_setting('logging_collector'), current_setting('log_destination'), "
            + "(SELECT reset_val FROM pg_settings WHERE name = 'auto_explain.log_min_duration')"), connection))
        await using (var reader = await settings.ExecuteReaderAsync(cancellationToken))
        {
            await reader.ReadAsync(cancellationToken);
            (collector, destinations, minDuration) = (reader.GetString(0), reader.GetString(1), reader.IsDBNull(2) ? null : reader.GetString(2));
        }

        var where = $"auto_explain is loaded on the server ({described})";
        if (minDuration == "-1")
        {
            return (null, $"{where} but auto_explain.log_min_duration is -1, so it logs no plan; ALTER SYSTEM SET auto_explain.log_min_duration = '250ms' (and auto_explain.log_format = json, auto_explain.log_analyze = on); SELECT pg_reload_conf(); has it log the plans of executions longer than 250 ms, which attach then reads; or capture again with --explain for plain EXPLAIN plans");
        }

        var formats = destinations.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        var format = AutoExplainLog.Formats.FirstOrDefault(f => formats.Contains(f, StringComparer.OrdinalIgnoreCase));
        if (format is null)
        {
            return (null, $"{where}, but the server's log goes to {destinations}, which the probe cannot read over a connection: read the plans there, or add jsonlog (or csvlog, stderr) to log_destination with logging_collector = on, and attach reads them");
        }

        if (collector != "on")
        {
            return (null, $"{where}, but logging_collector is off, so the server's {format} output goes wherever the server was started to send it (pg_ctl -l, the service manager's journal) and pg_current_logfile() names no file: read the plans there, or turn logging_collector on (a restart), and attach reads them");
        }

        string? path;
        long? size;
        try
        {
            (path, size) = await CurrentFileAsync(connection, format, cancellationToken);
        }
        catch (PostgresException e) when (e.SqlState == PostgresErrorCodes.InsufficientPrivilege)
        {
            return (null, $"{where}, but the monitoring role may not list the server's log files ({e.MessageText}): GRANT pg_monitor TO {Role(connection)}, and attach reads the plans from them");
        }

        if (path is null || size is null)
        {
            return (null, $"{where}, but the log directory holds no {format} file the logging collector writes: the plans are in the server's log, not read");
        }

        try
        {
            // Reading nothing at the end checks the right to read the file, and that the path is one the role may read.
            await using var probe = new NpgsqlCommand(PgMonitorSql.Marked("SELECT length(pg_read_binary_file(@path, @offset, 0))"), connection);
            probe.Parameters.AddWithValue("path", path);
            probe.Parameters.AddWithValue("offset", size.Value);
            await probe.ExecuteScalarAsync(cancellationToken);
        }
        catch (PostgresException e) when (e.SqlState == PostgresErrorCodes.InsufficientPrivilege)
        {
            var outside = System.IO.Path.IsPathRooted(path) ? " (the log directory is outside the data directory: also GRANT pg_read_server_files TO {Role(connection)})" : "";
            return (null, $"{where} and logs to {path}, but the monitoring role may not read it ({e.MessageText}): {ReadGrantTo(Role(connection))}{outside}, and attach reads the plans from it");
        }

        return (new AutoExplainLogFile(format, path, size.Value), null);
    }

    /// <summary>
    /// The file the logging collector writes in <paramref name="format"/> and its size: <c>pg_current_logfile()</c>
    /// (superuser, or a role granted it), else the newest file of the format in <c>pg_ls_logdir()</c> (pg_monitor),
    /// which is the one the collector writes to.
    /// </summary>
    private static async Task<(string? Path, long? Size)> CurrentFileAsync(NpgsqlConnection connection, string format, CancellationToken cancellationToken)
    {
        const string sizeOf = "(SELECT size FROM pg_ls_logdir() WHERE name = regexp_replace(f, '^.*[/\\\\]', ''))";
        try
        {
            await using var current = new NpgsqlCommand(PgMonitorSql.Marked($"SELECT f, {sizeOf} FROM pg_current_logfile(@format) f"), connection);
            current.Parameters.AddWithValue("format", format);
            await using var reader = await current.ExecuteReaderAsync(cancellationToken);
            await reader.ReadAsync(cancellationToken);
            return (reader.IsDBNull(0) ? null : reader.GetString(0), reader.IsDBNull(1) ? null : reader.GetInt64(1));
        }
        catch (PostgresException e) when (e.SqlState == PostgresErrorCodes.InsufficientPrivilege)
        {
            // pg_current_logfile() is the superuser's unless granted; the listing is pg_monitor's.
        }

        var extension = format switch { "jsonlog" => "'\\.json$'", "csvlog" => "'\\.csv$'", _ => "'\\.(csv|json)$'" };
        var match = format == "stderr" ? "!~" : "~";
        await using var newest = new NpgsqlCommand(PgMonitorSql.Marked(
            $"SELECT current_setting('log_directory') || '/' || name, size FROM pg_ls_logdir() WHERE name {match} {extension} ORDER BY modification DESC, name DESC LIMIT 1"), connection);
        await using var rows = await newest.ExecuteReaderAsync(cancellationToken);
        return await rows.ReadAsync(cancellationToken) ? (rows.GetString(0), rows.GetInt64(1)) : (null, null);
    }

    /// <summary>
    /// What the server wrote since the window opened: this file from <see cref="Offset"/>, then the files of the same
    /// format the logging collector started since (rotation), each whole. A file shorter than at the start was
    /// truncated and reused, and is read from its beginning.
    /// </summary>
    public async Task<IReadOnlyList<Segment>> SegmentsSinceAsync(NpgsqlConnection connection, DateTime startUtc, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        var files = new List<(string Name, long Size, DateTime Modified)>();
        await using (var list = new NpgsqlCommand(PgMonitorSql.Marked("SELECT name, size, modification FROM pg_ls_logdir()"), connection))
        await using (var reader = await list.ExecuteReaderAsync(cancellationToken))
        {
            while (await reader.ReadAsync(cancellationToken))
            {
                files.Add((reader.GetString(0), reader.GetInt64(1), reader.GetFieldValue<DateTime>(2)));
            }
        }

        var cut = Math.Max(Path.LastIndexOf('/'), Path.LastIndexOf('\\'));
        var (folder, name) = (Path[..(cut + 1)], Path[(cut + 1)..]);
        var extension = System.IO.Path.GetExtension(name);
        var segments = new List<Segment>();
        if (files.FirstOrDefault(f => f.Name == name) is { Name: not null } first)
        {
            segments.Add(new Segment(Path, first.Size < Offset ? 0 : Offset, first.Size));
        }

        // Files the collector started during the window: same format, written since it opened (modification times
        // have a second's resolution), in the order they were written.
        foreach (var f in files.Where(f => f.Name != name && System.IO.Path.GetExtension(f.Name) == extension && f.Modified >= startUtc.AddSeconds(-1))
            .OrderBy(f => f.Modified).ThenBy(f => f.Name, StringComparer.Ordinal))
        {
            segments.Add(new Segment(folder + f.Name, 0, f.Size));
        }

        return segments;
    }
}
