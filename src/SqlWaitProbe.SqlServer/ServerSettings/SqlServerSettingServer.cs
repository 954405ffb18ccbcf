using System.Data;
using Microsoft.Data.SqlClient;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.SqlServer.ServerSettings;

/// <summary>
/// An experiment's own connection to SQL Server, in the experiment's database: reads, applies and restores settings
/// with <see cref="SqlServerSettingCatalog"/>'s statements (the ones the dry run prints), runs GO-split scripts and
/// background sessions. SQL Server is never started or restarted by the probe.
/// </summary>
public sealed class SqlServerSettingServer : ISettingServer
{
    private readonly SqlServerConnectionFactory _factory;
    private readonly string _database;
    private SqlConnection? _connection;

    private SqlServerSettingServer(SqlServerConnectionFactory factory)
    {
        _factory = factory;
        _database = factory.WorkloadDatabase;
    }

    /// <inheritdoc />
    public bool Embedded => false;

    /// <inheritdoc />
    public string Describe => $"SQL Server {_factory.DataSource} (database {_database})";

    /// <inheritdoc />
    public string CaptureServer => _factory.Settings.Server;

    /// <summary>Connects to the experiment's database.</summary>
    public static async Task<SqlServerSettingServer> OpenAsync(SqlServerConnectionSettings settings, CancellationToken cancellationToken)
    {
        SqlClientCulture.UseInvariant();
        var server = new SqlServerSettingServer(new SqlServerConnectionFactory(settings));
        await server.ConnectAsync(cancellationToken);
        return server;
    }

    /// <inheritdoc />
    public async Task<SettingSnapshot?> ReadAsync(SettingDefinition setting, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(setting);
        var connection = await ConnectAsync(cancellationToken);
        var (family, _, _) = SqlServerSettingCatalog.Parts(setting);
        await using var command = new SqlCommand(SqlServerSettingCatalog.Instance.ReadStatements(setting)[0], connection) { CommandTimeout = 30 };
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        if (family == "trace_flag")
        {
            // DBCC TRACESTATUS: TraceFlag, Status, Global, Session; a flag never set has no row (or Global 0).
            var on = await reader.ReadAsync(cancellationToken) && Convert.ToInt32(reader.GetValue(2), System.Globalization.CultureInfo.InvariantCulture) == 1;
            return new SettingSnapshot(on ? "on" : "off", on ? "on" : "off");
        }

        if (!await reader.ReadAsync(cancellationToken))
        {
            return null;
        }

        var effective = reader.IsDBNull(0) ? "" : reader.GetString(0);
        var stored = reader.IsDBNull(1) ? null : reader.GetString(1);
        var snapshot = new SettingSnapshot(effective, stored);
        if (family == "sp_configure" && reader.FieldCount > 2 && !reader.IsDBNull(2) && reader.GetInt32(2) == 0)
        {
            snapshot = snapshot with { Fixed = "this option takes effect only when SQL Server restarts, which the probe never does" };
        }
        else if (family == "resource_pool" && stored is null)
        {
            snapshot = snapshot with { Fixed = "the pool has a scheduler affinity the probe cannot read back exactly to restore it; set it to AUTO first" };
        }

        return snapshot;
    }

    /// <inheritdoc />
    public async Task<string> ReadBackAsync(SettingDefinition setting, IReadOnlyList<string> sessionStatements, CancellationToken cancellationToken) =>
        (await ReadAsync(setting, cancellationToken))?.Effective ?? "";

    /// <summary>The server's identity: its name as it reports it (machine and instance), which a restart keeps.</summary>
    public const string IdentityQuery = "SELECT CONVERT(nvarchar(256), SERVERPROPERTY('ServerName')) AS server_name;";

    /// <inheritdoc />
    public async Task<string> IdentityAsync(CancellationToken cancellationToken)
    {
        var connection = await ConnectAsync(cancellationToken);
        await using var command = new SqlCommand(IdentityQuery, connection) { CommandTimeout = 30 };
        return "SQL Server " + (await command.ExecuteScalarAsync(cancellationToken) as string ?? "unknown");
    }

    /// <inheritdoc />
    public async Task ExecuteAsync(string statement, CancellationToken cancellationToken)
    {
        var connection = await ConnectAsync(cancellationToken);
        await using var command = new SqlCommand(statement, connection) { CommandTimeout = 0 };
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <inheritdoc />
    public Task RestartAsync(IProgress<string> progress, CancellationToken cancellationToken) =>
        throw new InvalidOperationException("the probe never restarts SQL Server");

    /// <inheritdoc />
    public async Task RunScriptAsync(IReadOnlyList<ScriptBatch> batches, string file, int firstLine, string role, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(batches);
        ArgumentNullException.ThrowIfNull(progress);
        var connection = await ConnectAsync(cancellationToken);
        foreach (var batch in batches)
        {
            progress.Report($"{role}: batch {batch.Number} of {batches.Count}");
            for (var i = 0; i < batch.Repeat; i++)
            {
                try
                {
                    await using var command = new SqlCommand(batch.Text, connection) { CommandTimeout = 0 };
                    await command.ExecuteNonQueryAsync(cancellationToken);
                }
                catch (SqlException e)
                {
                    throw new BadInputException($"{role} failed in batch {batch.Number}: {e.Errors[0].Message} (error {e.Number})", file, firstLine + batch.Line - 1 + Math.Max(0, e.LineNumber - 1));
                }
            }
        }
    }

    /// <inheritdoc />
    public async Task<IBackgroundLoad> StartBackgroundAsync(string sql, int sessions, IReadOnlyList<string> sessionStatements, CancellationToken cancellationToken) =>
        await SqlServerBackgroundLoad.StartAsync(_factory, _database, sql, sessions, cancellationToken);

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (_connection is not null)
        {
            await _connection.DisposeAsync();
        }
    }

    private async Task<SqlConnection> ConnectAsync(CancellationToken cancellationToken)
    {
        if (_connection is { State: ConnectionState.Open })
        {
            return _connection;
        }

        if (_connection is not null)
        {
            await _connection.DisposeAsync();
        }

        _connection = await _factory.OpenAsync(_database, pooling: false, cancellationToken);
        return _connection;
    }
}
