using Npgsql;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Postgres.Workloads;

/// <summary>A PostgreSQL database prepared for one workload.</summary>
public sealed class PostgresWorkloadTarget : IWorkloadTarget
{
    private readonly NpgsqlDataSource _source;

    /// <summary>Creates the target over a connection string (nothing is opened yet).</summary>
    public PostgresWorkloadTarget(string connectionString, WorkloadDefinition workload)
    {
        var builder = new NpgsqlConnectionStringBuilder(connectionString) { CommandTimeout = 0 };
        if (builder.MaxPoolSize < 4200)
        {
            builder.MaxPoolSize = 4200;
        }

        _source = NpgsqlDataSource.Create(builder.ConnectionString);
        Workload = workload;
    }

    /// <summary>The workload this target runs.</summary>
    public WorkloadDefinition Workload { get; }

    /// <inheritdoc />
    public async Task PrepareAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        await using var connection = await _source.OpenConnectionAsync(cancellationToken);
        var i = 0;
        foreach (var statement in Workload.Setup)
        {
            progress.Report($"setup {++i}/{Workload.Setup.Count}: {FirstLine(statement)}");
            await using var cmd = new NpgsqlCommand(statement, connection);
            await cmd.ExecuteNonQueryAsync(cancellationToken);
        }
    }

    /// <inheritdoc />
    public async Task<IWorkloadSession> OpenSessionAsync(int session, CancellationToken cancellationToken) =>
        await PostgresWorkloadSession.OpenAsync(_source, Workload, session, cancellationToken);

    /// <inheritdoc />
    public ValueTask DisposeAsync() => _source.DisposeAsync();

    private static string FirstLine(string sql)
    {
        var line = sql.Trim().Split('\n')[0].Trim();
        return line.StartsWith("DO ", StringComparison.Ordinal) ? "ensure table data (reused when its row count matches)" : line;
    }
}
