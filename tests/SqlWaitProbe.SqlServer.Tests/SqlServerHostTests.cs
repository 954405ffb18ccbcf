using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// Local or remote is decided after connecting, from what the server says of itself. The machine name and the process
/// table are stand-ins (this machine has no SQL Server): "SQLHOST01" is the machine the probe runs on, and its process
/// 4242 is a sqlservr.
/// </summary>
public sealed class SqlServerHostTests
{
    private const string Here = "SQLHOST01";

    private static string? Processes(int pid) => pid switch { 4242 => "sqlservr", 17 => "notepad", _ => null };

    [Theory]
    [InlineData("sqlhost01.corp.example.com")]
    [InlineData("10.20.30.40,1433")]
    [InlineData("SalesAlias")]
    [InlineData(@"np:\\sqlhost01\pipe\sql\query")]
    [InlineData("tcp:sqlhost01.corp.example.com,1433")]
    public void A_local_server_named_by_domain_name_address_alias_or_pipe_is_local_with_its_process(string dataSource)
    {
        var location = SqlServerHost.Locate(dataSource, "SQLHOST01", 4242, Here, Processes);
        Assert.True(location.IsLocal, location.Reason);
        Assert.Equal(4242, location.ServerPid);
    }

    [Fact]
    public void A_server_on_another_machine_is_remote_whatever_its_address()
    {
        var location = SqlServerHost.Locate("10.20.30.41", "SQLHOST02", 4242, Here, Processes);
        Assert.False(location.IsLocal);
        Assert.Null(location.ServerPid);
        Assert.Contains("SQLHOST02", location.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void A_process_id_that_is_no_sqlservr_here_is_not_taken_for_the_server()
    {
        // A container answers with its own process ids: the id may name any process of the host.
        var container = SqlServerHost.Locate("localhost,1433", "3f2a9c1d", 17, Here, Processes);
        Assert.True(container.IsLocal);
        Assert.Null(container.ServerPid);
    }

    [Fact]
    public async Task The_preflight_reads_the_servers_machine_name()
    {
        var sink = new ScriptedSqlSink(new Dictionary<string, SqlResult>
        {
            ["version check"] = new(["major_version", "product_version", "edition", "process_id", "physical_machine", "engine_edition", "version_text", "login_name"],
                [[16, "16.0.4135.4", "Developer Edition (64-bit)", 4242, "SQLHOST01", 3, "Microsoft SQL Server 2022", "probe"]]),
            ["permission check"] = new(["view_server_state", "alter_any_event_session", "view_server_performance_state"], [[1, 1, 1]]),
        });

        var info = await SqlServerPreflight.ReadAsync(sink, CancellationToken.None);

        Assert.Equal("SQLHOST01", info.PhysicalMachine);
        Assert.Equal(4242, info.ProcessId);
        Assert.Equal(3, info.EngineEdition);
        TSqlAssert.Parses(SqlServerPreflight.VersionQuery.Text, "version check");
    }
}
