using SqlWaitProbe.Core.Waits;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Tests;

public sealed class SqlServerWaitClassesTests
{
    [Theory]
    [InlineData("SOS_WORK_DISPATCHER", WaitClass.Idle)]
    [InlineData("HADR_WORK_QUEUE", WaitClass.Idle)]
    [InlineData("SLEEP_TASK", WaitClass.Idle)]
    [InlineData("XE_TIMER_EVENT", WaitClass.Idle)]
    [InlineData("WAITFOR", WaitClass.Intended)]
    [InlineData("ASYNC_NETWORK_IO", WaitClass.Client)]
    [InlineData("HADR_SYNC_COMMIT", WaitClass.Resource)]
    [InlineData("LCK_M_X", WaitClass.Resource)]
    public void Sql_server_waits_are_classed_by_name(string type, WaitClass expected) =>
        Assert.Equal(expected, new SqlServerModule().ClassOfWait(type));

    [Fact]
    public void A_wait_of_the_other_engines_form_is_not_classed_as_a_sql_server_wait() =>
        Assert.Null(new SqlServerModule().ClassOfWait("Activity:BgWriterMain"));
}
