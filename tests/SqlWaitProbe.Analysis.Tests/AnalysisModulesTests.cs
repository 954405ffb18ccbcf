using SqlWaitProbe.Core.Waits;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Analysis.Tests;

public sealed class AnalysisModulesTests
{
    [Theory]
    [InlineData("Activity:BgWriterMain", WaitClass.Idle)]
    [InlineData("SLEEP_TASK", WaitClass.Idle)]
    [InlineData("Client:ClientRead", WaitClass.Client)]
    [InlineData("LCK_M_X", WaitClass.Resource)]
    public void A_bundle_of_an_engine_this_build_does_not_know_has_its_waits_classed_by_their_names(string type, WaitClass expected) =>
        Assert.Equal(expected, Registered.Analysis.WaitClassesFor("an-engine-of-a-later-version")(type));

    [Fact]
    public void A_known_engine_classes_only_its_own_waits_and_any_other_name_is_a_resource_wait()
    {
        // "SLEEP_TASK" is idle on SQL Server; in a PostgreSQL bundle it is no wait PostgreSQL knows.
        Assert.Equal(WaitClass.Resource, Registered.Analysis.WaitClassesFor("postgres")("SLEEP_TASK"));
        Assert.Equal(WaitClass.Idle, Registered.Analysis.WaitClassesFor("sqlserver")("SLEEP_TASK"));
    }

    [Theory]
    [InlineData("sqlserver", "sqlservr", "sqlmin", true)]
    [InlineData("postgres", "postgres", "sqlmin", false)]
    [InlineData("an-engine-of-a-later-version", "sqlservr", "sqllang", true)]
    [InlineData("an-engine-of-a-later-version", "mysqld", "sqllang", false)]
    public void The_server_process_and_its_code_modules_come_from_the_engine_that_registered_them(string engine, string process, string module, bool own)
    {
        var server = Registered.Analysis.ProcessFor(engine, process);

        Assert.Equal(process, server.Name);
        Assert.True(server.IsOwnModule(process));
        Assert.Equal(own, server.IsOwnModule(module));
        Assert.Equal(process == "sqlservr", server.SessionCountersGrowOnlyWhileBusy);
    }
}
