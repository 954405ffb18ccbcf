using SqlWaitProbe.Core.Check;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary><c>probe check</c> of one SQL Server, through <see cref="SqlServerServerCheck"/>.</summary>
/// <param name="settings">The connection, password included.</param>
public sealed class SqlServerCheck(SqlServerConnectionSettings settings) : IServerCheck
{
    /// <inheritdoc />
    public ServerCheckPlan Plan() => SqlServerServerCheck.Plan(settings);

    /// <inheritdoc />
    public void WriteDryRun(TextWriter output) => SqlServerServerCheck.WriteDryRun(settings, output);

    /// <inheritdoc />
    public Task<int> RunAsync(TextWriter output, CancellationToken cancellationToken) => SqlServerServerCheck.RunAsync(settings, output, cancellationToken);

    /// <inheritdoc />
    public Task<ServerCheckReport> CheckAsync(CancellationToken cancellationToken) => SqlServerServerCheck.CheckAsync(settings, cancellationToken);
}
