namespace SqlWaitProbe.SqlServer.Capture;

/// <summary>What the preflight learned about the server.</summary>
/// <param name="MajorVersion">13 = 2016, 14 = 2017, 15 = 2019, 16 = 2022, 17 = 2025.</param>
/// <param name="ProductVersion">e.g. <c>16.0.4135.4</c>.</param>
/// <param name="VersionText"><c>@@VERSION</c>, first line.</param>
/// <param name="ViewServerState">VIEW SERVER STATE is granted.</param>
/// <param name="AlterAnyEventSession">ALTER ANY EVENT SESSION is granted.</param>
/// <param name="ViewServerPerformanceState">VIEW SERVER PERFORMANCE STATE is granted (2022+), null before 2022.</param>
/// <param name="Login">The login the probe connected as.</param>
public sealed record ServerInfo(int MajorVersion, string ProductVersion, string VersionText, bool ViewServerState, bool AlterAnyEventSession, bool? ViewServerPerformanceState, string Login)
{
    /// <summary>What a dry run assumes: SQL Server 2022 with every permission.</summary>
    public static ServerInfo DryRunAssumption { get; } = new(16, "16.0 (assumed)", "SQL Server 2022 (assumed by the dry run)", true, true, true, "(login)");
}
