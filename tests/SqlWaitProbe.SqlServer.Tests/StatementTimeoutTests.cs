using Microsoft.Data.SqlClient;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// A blocked server must not hang a phase's stop: every control statement runs with a time limit, and only the statements
/// whose length is the user's run without one. The connection is never opened (no SQL Server here): the limit is what the
/// sink would give SqlClient's CommandTimeout.
/// </summary>
public sealed class StatementTimeoutTests
{
    private static int TimeoutOf(SqlStatement statement)
    {
        var sink = new SqlConnectionSink(new SqlConnection("Server=stand-in-never-opened"));
        return sink.TimeoutFor(statement);
    }

    public static TheoryData<string> ControlStatements() => new()
    {
        "snapshot",
        "xe-create",
        "xe-stop",
        "xe-histogram",
        "xe-drop",
    };

    private static SqlStatement Control(string kind)
    {
        var builder = new XeSessionBuilder(new XeSessionOptions { RunId = "r1", Filter = new SessionFilter { SessionIds = [61] } });
        return kind switch
        {
            "snapshot" => new SqlStatement("snapshot sys.dm_os_wait_stats", "SELECT 1;"),
            "xe-create" => builder.Create(XeStream.Pages),
            "xe-stop" => builder.Stop(XeStream.Pages),
            "xe-histogram" => builder.ReadHistogram(XeStream.Pages),
            _ => builder.DropIfExists(XeStream.Pages),
        };
    }

    [Theory]
    [MemberData(nameof(ControlStatements))]
    public void Control_statements_run_with_a_time_limit(string kind)
    {
        var seconds = TimeoutOf(Control(kind));
        Assert.InRange(seconds, 1, 60);
    }

    [Fact]
    public void Reading_the_event_files_through_the_server_is_bounded_but_longer()
    {
        var builder = new XeSessionBuilder(new XeSessionOptions { RunId = "r1", Filter = new SessionFilter { SessionIds = [61] } });
        Assert.Equal(XeSessionBuilder.EventFileReadTimeoutSeconds, TimeoutOf(builder.ReadEventFiles("C:\\x\\probe_r1_load_pages*.xel")));
        Assert.True(XeSessionBuilder.EventFileReadTimeoutSeconds > SqlConnectionSink.DefaultTimeoutSeconds);
    }

    [Fact]
    public void The_users_statements_and_a_checkpoint_run_without_limit()
    {
        Assert.Equal(0, TimeoutOf(SqlServerWorkloadTarget.CreateDatabase("SqlWaitProbe")));
        Assert.Equal(0, TimeoutOf(ServerStateReset.Statements("SqlWaitProbe").Single(s => s.Text.Contains("CHECKPOINT", StringComparison.Ordinal))));
    }
}
