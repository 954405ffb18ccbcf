using System.Globalization;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>Checks the server's version and the login's permissions before anything else is sent.</summary>
public static class SqlServerPreflight
{
    /// <summary>SQL Server 2016: <c>sys.dm_exec_session_wait_stats</c> and <c>DROP … IF EXISTS</c> appeared.</summary>
    public const int MinimumMajorVersion = 13;

    /// <summary>The version query, run first: the permissions asked for next depend on the version it answers.</summary>
    public static SqlStatement VersionQuery { get; } = new("version check", """
        SELECT CONVERT(int, SERVERPROPERTY('ProductMajorVersion')) AS major_version,
               CONVERT(nvarchar(128), SERVERPROPERTY('ProductVersion')) AS product_version,
               CONVERT(nvarchar(128), SERVERPROPERTY('Edition')) AS edition,
               CONVERT(int, SERVERPROPERTY('ProcessID')) AS process_id,
               CONVERT(nvarchar(128), SERVERPROPERTY('ComputerNamePhysicalNetBIOS')) AS physical_machine,
               CONVERT(int, SERVERPROPERTY('EngineEdition')) AS engine_edition,
               @@VERSION AS version_text,
               SUSER_SNAME() AS login_name;
        """);

    /// <summary>SQL Server 2022: VIEW SERVER PERFORMANCE STATE appeared (and guards sys.dm_os_spinlock_stats and other performance DMVs).</summary>
    public const int PerformanceStateMajorVersion = 16;

    /// <summary>
    /// The permission query for a server of <paramref name="majorVersion"/>: VIEW SERVER PERFORMANCE STATE is asked only
    /// of SQL Server 2022 and later, the versions that know it; the version query runs first and decides.
    /// </summary>
    public static SqlStatement PermissionQuery(int majorVersion) => new("permission check", majorVersion >= PerformanceStateMajorVersion
        ? """
          SELECT HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER STATE') AS view_server_state,
                 HAS_PERMS_BY_NAME(NULL, NULL, N'ALTER ANY EVENT SESSION') AS alter_any_event_session,
                 HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER PERFORMANCE STATE') AS view_server_performance_state,
                 HAS_PERMS_BY_NAME(NULL, NULL, N'ALTER SERVER STATE') AS alter_server_state,
                 IS_SRVROLEMEMBER(N'sysadmin') AS sysadmin;
          """
        : """
          SELECT HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER STATE') AS view_server_state,
                 HAS_PERMS_BY_NAME(NULL, NULL, N'ALTER ANY EVENT SESSION') AS alter_any_event_session,
                 HAS_PERMS_BY_NAME(NULL, NULL, N'ALTER SERVER STATE') AS alter_server_state,
                 IS_SRVROLEMEMBER(N'sysadmin') AS sysadmin;
          """);

    /// <summary>Every server permission the login holds (for <c>probe check</c>).</summary>
    public static SqlStatement MyPermissionsQuery { get; } = new("list server permissions", """
        SELECT p.permission_name FROM sys.fn_my_permissions(NULL, 'SERVER') AS p ORDER BY p.permission_name;
        """);

    /// <summary>
    /// Reads the version, then the permissions that version knows. A dry run assumes the version its recorder names
    /// (<see cref="RecordingSqlSink.AssumedMajorVersion"/>) and every permission granted.
    /// </summary>
    public static async Task<ServerInfo> ReadAsync(ISqlCommandSink sink, CancellationToken cancellationToken)
    {
        var version = await sink.QueryAsync(VersionQuery, cancellationToken);
        if (sink.IsDryRun || version.Rows.Count == 0)
        {
            var assumed = sink is RecordingSqlSink recording ? recording.AssumedMajorVersion : ServerInfo.DryRunAssumption.MajorVersion;
            await sink.QueryAsync(PermissionQuery(assumed), cancellationToken);
            if (sink is RecordingSqlSink recorder)
            {
                recorder.Note($"the dry run assumes {ServerInfo.ProductName(assumed)} (major version {assumed.ToString(CultureInfo.InvariantCulture)}) with every permission granted; "
                    + $"the permission query asks for VIEW SERVER PERFORMANCE STATE only when the version query answers {PerformanceStateMajorVersion.ToString(CultureInfo.InvariantCulture)} or later");
            }

            return ServerInfo.DryRunAssumptionFor(assumed);
        }

        var major = (int)DmvSnapshot.Number(version.Get(0, "major_version"));
        var perms = await sink.QueryAsync(PermissionQuery(major), cancellationToken);
        if (perms.Rows.Count == 0)
        {
            return ServerInfo.DryRunAssumptionFor(major);
        }

        bool? Perm(string column) => perms.Get(0, column) is { } v ? DmvSnapshot.Number(v) == 1 : null;
        var text = DmvSnapshot.Text(version.Get(0, "version_text")).Split('\n')[0].Trim();
        return new ServerInfo(
            major,
            DmvSnapshot.Text(version.Get(0, "product_version")),
            text,
            Perm("view_server_state") == true,
            Perm("alter_any_event_session") == true,
            major >= PerformanceStateMajorVersion ? Perm("view_server_performance_state") == true : null,
            DmvSnapshot.Text(version.Get(0, "login_name")),
            DmvSnapshot.Text(version.Get(0, "edition")))
        {
            ProcessId = version.Get(0, "process_id") is { } pid && DmvSnapshot.Number(pid) is var n && n > 0 && n <= int.MaxValue ? (int)n : null,
            AlterServerState = Perm("alter_server_state"),
            Sysadmin = Perm("sysadmin"),
            EngineEdition = version.Get(0, "engine_edition") is { } edition ? (int)DmvSnapshot.Number(edition) : null,
            PhysicalMachine = version.Get(0, "physical_machine") is string machine && machine.Length > 0 ? machine : null,
        };
    }

    /// <summary><c>SERVERPROPERTY('EngineEdition')</c> of Azure SQL Database: no server-scoped DMVs or event sessions.</summary>
    public const int AzureSqlDatabaseEdition = 5;

    /// <summary><c>SERVERPROPERTY('EngineEdition')</c> of Azure SQL Managed Instance: event files only on Azure Blob Storage.</summary>
    public const int ManagedInstanceEdition = 8;

    /// <summary>
    /// Throws the one-line error for the first missing requirement of a capture: what the edition allows first, then
    /// the version, then the permissions.
    /// </summary>
    public static void Require(ServerInfo info, string server, bool needsXe, bool needsReset = false)
    {
        // Checked before permissions: granting VIEW SERVER STATE, the advice below, cannot help on these editions.
        if (info.EngineEdition == AzureSqlDatabaseEdition)
        {
            throw new Core.Errors.EnvironmentProblemException(
                $"{server} is Azure SQL Database (EngineEdition 5), which has no server-wide DMVs (sys.dm_os_wait_stats, sys.dm_os_schedulers) and no ON SERVER event sessions, so the probe cannot capture it.",
                "Capture a SQL Server or an Azure SQL Managed Instance; on Azure SQL Database, use sys.dm_db_wait_stats and Query Store.");
        }

        if (needsXe && info.EngineEdition == ManagedInstanceEdition)
        {
            throw new Core.Errors.EnvironmentProblemException(
                $"{server} is Azure SQL Managed Instance (EngineEdition 8), where event files can only be written to Azure Blob Storage, which --xe does not set up.",
                "Run without --xe; waits, latches, spinlocks and counters are captured as on SQL Server.");
        }

        if (info.MajorVersion < MinimumMajorVersion)
        {
            throw SqlErrorMap.TooOld(server, info.MajorVersion, "per-session wait statistics (sys.dm_exec_session_wait_stats)", MinimumMajorVersion, "SQL Server 2016");
        }

        if (!info.ViewServerState)
        {
            throw SqlErrorMap.MissingPermission("VIEW SERVER STATE", server, info.Login, "read waits, latches, spinlocks, counters and other sessions' DMVs");
        }

        if (info.ViewServerPerformanceState == false)
        {
            throw SqlErrorMap.MissingPermission("VIEW SERVER PERFORMANCE STATE", server, info.Login, "read sys.dm_os_spinlock_stats and other performance DMVs on SQL Server 2022+");
        }

        if (needsReset && info.AlterServerState == false)
        {
            throw SqlErrorMap.MissingPermission("ALTER SERVER STATE", server, info.Login, "clear wait, latch and spinlock statistics for --reset-server-state");
        }

        if (needsReset && info.Sysadmin == false)
        {
            throw new Core.Errors.EnvironmentProblemException(
                $"--reset-server-state runs DBCC DROPCLEANBUFFERS, which only members of sysadmin may run, and {info.Login} on {server} is not one.",
                "Run without --reset-server-state, or as a sysadmin login.");
        }

        if (needsXe && !info.AlterAnyEventSession)
        {
            throw SqlErrorMap.MissingPermission("ALTER ANY EVENT SESSION", server, info.Login, "create the --xe extended-event sessions");
        }
    }
}
