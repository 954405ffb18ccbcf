using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer;

/// <summary>The collectors of a SQL Server capture, in start order. A new one is registered here with one line.</summary>
public static class SqlServerCollectors
{
    /// <summary>The catalog.</summary>
    public static IReadOnlyList<IEngineCollectorModule<SqlServerRun>> All { get; } =
    [
        new DmvModule(),
        new SessionStateModule(),
        new WorkerThreadModule(),
        new Statements.SqlStatementsModule(),
        new XeModule(),
    ];
}
