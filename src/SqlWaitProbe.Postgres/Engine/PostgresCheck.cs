using SqlWaitProbe.Core.Check;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary><c>probe check</c> of one PostgreSQL server, through <see cref="PostgresServerCheck"/>.</summary>
/// <param name="connectionString">The server with the password applied.</param>
public sealed class PostgresCheck(string connectionString) : IServerCheck
{
    /// <inheritdoc />
    public ServerCheckPlan Plan() => PostgresServerCheck.Plan(connectionString);

    /// <inheritdoc />
    public void WriteDryRun(TextWriter output) => PostgresServerCheck.WriteDryRun(connectionString, output);

    /// <inheritdoc />
    public Task<int> RunAsync(TextWriter output, CancellationToken cancellationToken) => PostgresServerCheck.RunAsync(connectionString, output, cancellationToken);

    /// <inheritdoc />
    public Task<ServerCheckReport> CheckAsync(CancellationToken cancellationToken) => PostgresServerCheck.CheckAsync(connectionString, cancellationToken);
}
