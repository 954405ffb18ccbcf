using SqlWaitProbe.Core.Waits;

namespace SqlWaitProbe.Postgres.Tests;

public sealed class PostgresWaitClassesTests
{
    [Theory]
    [InlineData("Activity:BgWriterMain", WaitClass.Idle)]
    [InlineData("Timeout:PgSleep", WaitClass.Intended)]
    [InlineData("Timeout:VacuumDelay", WaitClass.Intended)]
    [InlineData("Client:ClientRead", WaitClass.Client)]
    [InlineData("Client:ClientWrite", WaitClass.Client)]
    [InlineData("Lock:transactionid", WaitClass.Resource)]
    [InlineData("IO:BufFileWrite", WaitClass.Resource)]
    public void PostgreSQL_waits_are_classed_by_name(string type, WaitClass expected) =>
        Assert.Equal(expected, new PostgresModule().ClassOfWait(type));

    [Fact]
    public void A_wait_of_the_other_engines_form_is_not_classed_as_a_postgres_wait() =>
        Assert.Null(new PostgresModule().ClassOfWait("WAITFOR"));
}
