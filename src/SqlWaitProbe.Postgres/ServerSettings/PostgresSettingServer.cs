using System.Diagnostics;
using Npgsql;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.Postgres.Engine;

namespace SqlWaitProbe.Postgres.ServerSettings;

/// <summary>
/// An experiment's own connection to PostgreSQL: the embedded server it starts (and may restart), or the server the
/// experiment names. Reads, applies and restores settings with <see cref="PostgresSettingCatalog"/>'s statements.
/// </summary>
public sealed class PostgresSettingServer : ISettingServer
{
    /// <summary>
    /// How long a reloaded setting is watched for a change in new sessions (the postmaster passes a reload on within
    /// milliseconds); a value that was already the one asked for simply reads the same after it.
    /// </summary>
    public static readonly TimeSpan ReloadWait = TimeSpan.FromSeconds(1);

    private readonly EmbeddedPostgres? _embedded;
    private readonly string _connectionString;
    private NpgsqlConnection? _connection;

    private PostgresSettingServer(EmbeddedPostgres? embedded, string connectionString)
    {
        _embedded = embedded;
        _connectionString = connectionString;
    }

    /// <inheritdoc />
    public bool Embedded => _embedded is not null;

    /// <inheritdoc />
    public string Describe => _embedded is null ? PostgresConnectionStrings.Redact(_connectionString) : "the embedded PostgreSQL";

    /// <inheritdoc />
    public string CaptureServer => _connectionString;

    /// <summary>
    /// Starts the embedded server (<paramref name="server"/> null; the experiment's <paramref name="database"/> is
    /// created in it) or connects to <paramref name="server"/>.
    /// </summary>
    public static async Task<PostgresSettingServer> OpenAsync(string? server, string? passwordEnv, string? database, string? user, RunScope scope, int maxSessions, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(progress);
        if (server is not null)
        {
            var connectionString = PostgresConnectionStrings.FromOptions(server, passwordEnv, database, user)!;
            var remote = new PostgresSettingServer(null, new NpgsqlConnectionStringBuilder(connectionString) { CommandTimeout = 0 }.ConnectionString);
            await remote.ConnectAsync(cancellationToken);
            return remote;
        }

        var embedded = await EmbeddedPostgres.StartAsync(scope, new EmbeddedPostgresOptions { MaxSessions = maxSessions }, progress, cancellationToken);
        try
        {
            var builder = new NpgsqlConnectionStringBuilder(embedded.ConnectionString);
            if (database is not null && database != builder.Database)
            {
                await using var admin = new NpgsqlConnection(embedded.ConnectionString);
                await admin.OpenAsync(cancellationToken);
                await using var create = new NpgsqlCommand("CREATE DATABASE " + QuoteIdentifier(database), admin);
                await create.ExecuteNonQueryAsync(cancellationToken);
                builder.Database = database;
            }

            var local = new PostgresSettingServer(embedded, builder.ConnectionString);
            await local.ConnectAsync(cancellationToken);
            return local;
        }
        catch
        {
            await embedded.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// <paramref name="connectionString"/> with <paramref name="settings"/> passed to the server as each session starts
    /// (the <c>options</c> of libpq, <c>-c name=value</c>): every workload session of the capture, and the parallel
    /// workers it starts, run with them, and nothing on the server needs restoring afterwards.
    /// </summary>
    public static string WithSessionSettings(string connectionString, IReadOnlyList<(string Name, string Value)> settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        if (settings.Count == 0)
        {
            return connectionString;
        }

        var builder = PostgresConnectionStrings.Parse(connectionString);
        // libpq's options take a backslash before a space or backslash inside one value.
        var options = settings.Select(s => "-c " + s.Name + "=" + s.Value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace(" ", "\\ ", StringComparison.Ordinal));
        builder.Options = string.Join(' ', builder.Options is { Length: > 0 } given ? [given, .. options] : options);
        return builder.ConnectionString;
    }

    /// <inheritdoc />
    public async Task<SettingSnapshot?> ReadAsync(SettingDefinition setting, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(setting);
        var connection = await ConnectAsync(cancellationToken);
        await using (var find = new NpgsqlCommand("SELECT context FROM pg_settings WHERE name = $1", connection))
        {
            find.Parameters.AddWithValue(setting.Name);
            if (await find.ExecuteScalarAsync(cancellationToken) is not string context)
            {
                return null;
            }

            if (PostgresSettingCatalog.LevelOf(context) is { } level && level != setting.Level)
            {
                throw new BadInputException($"{setting.Name} is a {context}-level setting on this server, not {setting.Family}; the probe will not apply it in a way the server does not take");
            }
        }

        var statements = PostgresSettingCatalog.Instance.ReadStatements(setting);
        var effective = await ScalarAsync(connection, statements[0], cancellationToken) ?? "";
        var stored = statements.Count > 1 ? await ScalarAsync(connection, statements[1], cancellationToken) : null;
        return new SettingSnapshot(effective, stored);
    }

    /// <summary>The cluster's identity: its system identifier (fixed at initdb) and the port it listens on.</summary>
    public const string IdentityQuery = "SELECT (SELECT system_identifier::text FROM pg_control_system()) || ' port ' || current_setting('port')";

    /// <inheritdoc />
    public async Task<string> IdentityAsync(CancellationToken cancellationToken) =>
        "postgres cluster " + (await ScalarAsync(await ConnectAsync(cancellationToken), IdentityQuery, cancellationToken) ?? "unknown");

    /// <inheritdoc />
    public async Task<string> ReadBackAsync(SettingDefinition setting, IReadOnlyList<string> sessionStatements, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(setting);
        ArgumentNullException.ThrowIfNull(sessionStatements);
        var read = PostgresSettingCatalog.Instance.ReadStatements(setting)[0];
        var waited = Stopwatch.StartNew();
        string? first = null;
        while (true)
        {
            // A new session each time: a reload reaches sessions between their statements, and a SET only its own session.
            await using var session = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(_connectionString) { Pooling = false, ApplicationName = "probe-experiment" }.ConnectionString);
            await session.OpenAsync(cancellationToken);
            foreach (var statement in sessionStatements)
            {
                await using var set = new NpgsqlCommand(statement, session);
                await set.ExecuteNonQueryAsync(cancellationToken);
            }

            var value = await ScalarAsync(session, read, cancellationToken) ?? "";
            first ??= value;
            if (setting.Level != SettingLevel.Server || value != first || waited.Elapsed > ReloadWait)
            {
                return value;
            }

            await Task.Delay(100, cancellationToken);
        }
    }

    /// <inheritdoc />
    public async Task ExecuteAsync(string statement, CancellationToken cancellationToken)
    {
        var connection = await ConnectAsync(cancellationToken);
        await using var command = new NpgsqlCommand(statement, connection);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <inheritdoc />
    public async Task RestartAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        var embedded = _embedded ?? throw new InvalidOperationException("only the embedded server is restarted");
        if (_connection is not null)
        {
            await _connection.DisposeAsync();
            _connection = null;
        }

        NpgsqlConnection.ClearAllPools();
        await embedded.RestartAsync(progress, cancellationToken);
        await ConnectAsync(cancellationToken);
    }

    /// <inheritdoc />
    public async Task RunScriptAsync(IReadOnlyList<ScriptBatch> batches, string file, int firstLine, string role, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(batches);
        ArgumentNullException.ThrowIfNull(progress);
        var connection = await ConnectAsync(cancellationToken);
        foreach (var batch in batches)
        {
            progress.Report($"{role}: statement {batch.Number} of {batches.Count}");
            try
            {
                await using var command = new NpgsqlCommand(batch.Text, connection);
                await command.ExecuteNonQueryAsync(cancellationToken);
            }
            catch (PostgresException e)
            {
                // The error's position, when the server gives one, names the line inside the statement.
                var inside = e.Position > 0 && e.Position <= batch.Text.Length ? batch.Text[..(e.Position - 1)].Count(c => c == '\n') : 0;
                throw new BadInputException($"{role} failed at statement {batch.Number}: {e.MessageText} (SQLSTATE {e.SqlState})", file, firstLine + batch.Line - 1 + inside);
            }
        }
    }

    /// <inheritdoc />
    public async Task<IBackgroundLoad> StartBackgroundAsync(string sql, int sessions, IReadOnlyList<string> sessionStatements, CancellationToken cancellationToken) =>
        await PostgresBackgroundLoad.StartAsync(_connectionString, sql, sessions, sessionStatements, cancellationToken);

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (_connection is not null)
        {
            await _connection.DisposeAsync();
        }

        if (_embedded is not null)
        {
            await _embedded.DisposeAsync();
        }
    }

    /// <summary>Kills an embedded server at once (a forced exit).</summary>
    public void KillNow() => _embedded?.KillNow();

    private async Task<NpgsqlConnection> ConnectAsync(CancellationToken cancellationToken)
    {
        if (_connection is { State: System.Data.ConnectionState.Open })
        {
            return _connection;
        }

        if (_connection is not null)
        {
            await _connection.DisposeAsync();
        }

        _connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(_connectionString) { Pooling = false, ApplicationName = "probe-experiment" }.ConnectionString);
        try
        {
            await _connection.OpenAsync(cancellationToken);
        }
        catch (Exception e) when (e is NpgsqlException or System.Net.Sockets.SocketException or TimeoutException && !cancellationToken.IsCancellationRequested)
        {
            throw new EnvironmentProblemException($"cannot connect to {Describe}: {PostgresConnectionStrings.RedactText(e.Message.Split('\n')[0])}", "Check that the server runs and accepts this connection.");
        }

        return _connection;
    }

    private static async Task<string?> ScalarAsync(NpgsqlConnection connection, string sql, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        return await command.ExecuteScalarAsync(cancellationToken) switch
        {
            null or DBNull => null,
            var v => Convert.ToString(v, System.Globalization.CultureInfo.InvariantCulture),
        };
    }

    private static string QuoteIdentifier(string name) => "\"" + name.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
