namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>What the preflight learned about the server.</summary>
/// <param name="MajorVersion">13 = 2016, 14 = 2017, 15 = 2019, 16 = 2022, 17 = 2025.</param>
/// <param name="ProductVersion">e.g. <c>16.0.4135.4</c>.</param>
/// <param name="VersionText"><c>@@VERSION</c>, first line.</param>
/// <param name="ViewServerState">VIEW SERVER STATE is granted.</param>
/// <param name="AlterAnyEventSession">ALTER ANY EVENT SESSION is granted.</param>
/// <param name="ViewServerPerformanceState">VIEW SERVER PERFORMANCE STATE is granted (2022+), null before 2022.</param>
/// <param name="Login">The login the probe connected as.</param>
/// <param name="Edition">The edition, e.g. <c>Developer Edition (64-bit)</c>.</param>
public sealed record ServerInfo(int MajorVersion, string ProductVersion, string VersionText, bool ViewServerState, bool AlterAnyEventSession, bool? ViewServerPerformanceState, string Login, string Edition = "")
{
    /// <summary>
    /// The server's process id (<c>SERVERPROPERTY('ProcessID')</c>): on this machine, the <c>sqlservr</c> whose CPU
    /// samples are the workload's. Null when not read.
    /// </summary>
    public int? ProcessId { get; init; }

    /// <summary>
    /// The NetBIOS name of the machine the server runs on (<c>SERVERPROPERTY('ComputerNamePhysicalNetBIOS')</c>, the
    /// active node of a cluster): whether the server is local is decided by it after connecting, not by the name the
    /// user typed. Null when not read.
    /// </summary>
    public string? PhysicalMachine { get; init; }

    /// <summary><c>SERVERPROPERTY('EngineEdition')</c>: 5 Azure SQL Database, 8 Managed Instance, 2-4 SQL Server; null when not read.</summary>
    public int? EngineEdition { get; init; }

    /// <summary>ALTER SERVER STATE is granted (<c>DBCC SQLPERF(..., CLEAR)</c> of --reset-server-state); null when not read.</summary>
    public bool? AlterServerState { get; init; }

    /// <summary>The login is a member of sysadmin (<c>DBCC DROPCLEANBUFFERS</c> of --reset-server-state); null when not read.</summary>
    public bool? Sysadmin { get; init; }

    /// <summary>What a dry run assumes by default: SQL Server 2022 with every permission.</summary>
    public static ServerInfo DryRunAssumption { get; } = DryRunAssumptionFor(16);

    /// <summary>What a dry run assumes for a server of <paramref name="majorVersion"/>: every permission that version knows.</summary>
    public static ServerInfo DryRunAssumptionFor(int majorVersion)
    {
        var major = majorVersion.ToString(System.Globalization.CultureInfo.InvariantCulture);
        return new(majorVersion, major + ".0 (assumed)", ProductName(majorVersion) + " (assumed by the dry run)", true, true,
            majorVersion >= SqlServerPreflight.PerformanceStateMajorVersion ? true : null, "(login)", "(edition assumed)");
    }

    /// <summary>The product name of a major version, e.g. <c>SQL Server 2019</c> for 15.</summary>
    public static string ProductName(int majorVersion) => majorVersion switch
    {
        13 => "SQL Server 2016",
        14 => "SQL Server 2017",
        15 => "SQL Server 2019",
        16 => "SQL Server 2022",
        17 => "SQL Server 2025",
        _ => "SQL Server (major version " + majorVersion.ToString(System.Globalization.CultureInfo.InvariantCulture) + ")",
    };
}
