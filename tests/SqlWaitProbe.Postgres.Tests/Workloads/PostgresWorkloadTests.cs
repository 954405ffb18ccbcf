using System.Diagnostics;
using Npgsql;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Postgres.Workloads;

namespace SqlWaitProbe.Postgres.Tests.Workloads;

[Collection(EmbeddedServerCollection.Name)]
public sealed class PostgresWorkloadTests(EmbeddedServerFixture fixture)
{
    [Fact]
    public async Task Every_workload_sets_up_and_runs_on_a_real_server()
    {
        foreach (var workload in PostgresWorkloadCatalog.Create(0.002))
        {
            await using var target = new PostgresWorkloadTarget(fixture.Server.ConnectionString, workload);
            await target.PrepareAsync(new Progress<string>(), CancellationToken.None);
            await using var session = await target.OpenSessionAsync(1, CancellationToken.None);
            var rows = await session.ExecuteAsync(CancellationToken.None);
            Assert.True(rows >= 1, $"{workload.Name} returned {rows} rows");
            Assert.NotNull(session.Info.BackendPid);
        }
    }

    [Fact]
    public async Task Setup_reuses_a_table_with_the_right_row_count_and_rebuilds_otherwise()
    {
        var small = PostgresWorkloadCatalog.Get("hashbytes", 0.01);
        await using (var target = new PostgresWorkloadTarget(fixture.Server.ConnectionString, small))
        {
            await target.PrepareAsync(new Progress<string>(), CancellationToken.None);
        }

        var oid = await Scalar("SELECT 'hb_demo'::regclass::oid");
        await using (var again = new PostgresWorkloadTarget(fixture.Server.ConnectionString, small))
        {
            await again.PrepareAsync(new Progress<string>(), CancellationToken.None);
        }

        Assert.Equal(oid, await Scalar("SELECT 'hb_demo'::regclass::oid"));
        Assert.Equal("20000", await Scalar("SELECT count(*) FROM hb_demo"));

        await using (var bigger = new PostgresWorkloadTarget(fixture.Server.ConnectionString, PostgresWorkloadCatalog.Get("hashbytes", 0.0125)))
        {
            await bigger.PrepareAsync(new Progress<string>(), CancellationToken.None);
        }

        Assert.Equal("25000", await Scalar("SELECT count(*) FROM hb_demo"));
    }

    [Fact]
    public async Task Session_reports_its_own_backend_pid()
    {
        await using var target = new PostgresWorkloadTarget(fixture.Server.ConnectionString, PostgresWorkloadCatalog.Get("noop", 1));
        await using var session = await target.OpenSessionAsync(3, CancellationToken.None);
        Assert.Equal(3, session.Info.Session);
        var stat = await File.ReadAllTextAsync($"/proc/{session.Info.BackendPid}/stat");
        Assert.Contains("(postgres)", stat);
        Assert.Equal("1", await Scalar($"SELECT count(*) FROM pg_stat_activity WHERE pid = {session.Info.BackendPid}"));
    }

    [Fact]
    public void Unknown_workload_and_bad_scale_are_bad_input()
    {
        Assert.Contains("hashbytes", Assert.Throws<BadInputException>(() => PostgresWorkloadCatalog.Get("nope", 1)).Message);
        Assert.Throws<BadInputException>(() => PostgresWorkloadCatalog.Create(0));
        Assert.Throws<BadInputException>(() => PostgresWorkloadCatalog.Create(double.NaN));
    }

    private async Task<string?> Scalar(string sql)
    {
        await using var connection = new NpgsqlConnection(fixture.Server.ConnectionString);
        await connection.OpenAsync();
        await using var cmd = new NpgsqlCommand(sql, connection);
        return (await cmd.ExecuteScalarAsync())?.ToString();
    }
}
