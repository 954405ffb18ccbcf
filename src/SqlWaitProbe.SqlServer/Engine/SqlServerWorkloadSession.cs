using Microsoft.Data.SqlClient;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>One workload connection; runs the query with a reused command and counts rows read and written.</summary>
public sealed class SqlServerWorkloadSession : IWorkloadSession
{
    private readonly ISqlCommandSink _sink;
    private readonly SqlStatement _statement;
    private readonly SqlCommand? _command;

    /// <summary>Creates the session over its own sink.</summary>
    public SqlServerWorkloadSession(WorkloadSessionInfo info, ISqlCommandSink sink, string query)
    {
        Info = info;
        _sink = sink;
        _statement = new SqlStatement("workload query", query) { TimeoutSeconds = SqlStatement.Unbounded };
        if (sink is SqlConnectionSink live)
        {
            _command = new SqlCommand(query, live.Connection) { CommandTimeout = 0 };
        }
    }

    /// <inheritdoc />
    public WorkloadSessionInfo Info { get; }

    /// <inheritdoc />
    public async ValueTask<long> ExecuteAsync(CancellationToken cancellationToken)
    {
        if (_command is null)
        {
            await _sink.ExecuteAsync(_statement, cancellationToken);
            return 0;
        }

        long rows = 0;
        await using (var reader = await _command.ExecuteReaderAsync(cancellationToken))
        {
            do
            {
                while (await reader.ReadAsync(cancellationToken))
                {
                    rows++;
                }
            }
            while (await reader.NextResultAsync(cancellationToken));

            if (reader.RecordsAffected > 0)
            {
                rows += reader.RecordsAffected;
            }
        }

        return rows;
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (_command is not null)
        {
            await _command.DisposeAsync();
        }

        if (_sink is IAsyncDisposable d)
        {
            await d.DisposeAsync();
        }
    }
}
