using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// Attach mode's session states for SQL Server, on a stand-in for the DMVs (no SQL Server can run here; the query
/// itself is parsed and bound to the 2016-2025 catalogs by the catalog tests through the attach dry run): a sleeping
/// session with no request is idle, one holding a transaction open is idle in transaction, a request makes it active,
/// and a session id a pooled connection reuses with a new login time is a new connection.
/// </summary>
public sealed class SessionStateSamplerTests
{
    private static readonly DateTime T0 = new(2026, 11, 25, 10, 0, 0, DateTimeKind.Utc);
    private static readonly DateTime Login1 = T0.AddHours(-1);
    private static readonly DateTime Login2 = T0.AddSeconds(3.5);

    [Fact]
    public void Sleeping_sessions_are_idle_open_transactions_idle_in_transaction_requests_active_and_a_reused_id_a_new_connection()
    {
        var tracker = new SessionStateTracker();
        for (var i = 0; i <= 10; i++)
        {
            var at = T0.AddSeconds(i);
            var rows = new List<(int, DateTime, string)>
            {
                // 51: a request for the first 4 s, then sleeping.
                (51, Login1, SessionStateTracker.StateOf(hasRequest: i < 4, openTransactions: 0)),
                // 52: sleeping with a transaction open from 2 s to 6 s.
                (52, Login1, SessionStateTracker.StateOf(hasRequest: false, openTransactions: i is >= 2 and < 6 ? 1 : 0)),
            };
            if (i < 8)
            {
                // 53: a pooled connection to 3 s, then another one on the same session id, gone at 8 s.
                rows.Add((53, i < 4 ? Login1 : Login2, SessionStateTracker.StateOf(hasRequest: true, openTransactions: 0)));
            }

            tracker.Observe(at, rows);
        }

        var root = TestData.TempFolder();
        var phase = new PhaseContext("attach", 0, root, []) { StartUtc = T0 };
        tracker.Write(phase, T0.AddSeconds(10));

        var lines = File.ReadAllLines(Path.Combine(root, "phases/attach/session_states.csv"));
        Assert.Equal(
        [
            "session,state,start_ms,end_ms",
            "51,active,0,4000", "51,idle,4000,10000",
            "52,idle,0,2000", "52,idle in transaction,2000,6000", "52,idle,6000,10000",
            "53,active,0,4000", "53,active,4000,8000",
        ], lines);
        Assert.Equal(4, tracker.Connections);
    }

    [Fact]
    public async Task The_sampler_maps_each_polled_row_and_one_session_with_several_requests_once()
    {
        var rows = new SqlResult(["session_id", "login_time", "open_transaction_count", "has_request"],
        [
            [(short)51, Login1, 0, 1],
            [(short)51, Login1, 0, 1],
            [(short)52, Login1, 1, 0],
            [(short)53, Login1, 0, 0],
        ]);
        var server = new ScriptedSqlSink(new Dictionary<string, SqlResult> { ["poll session states"] = rows });
        var sampler = new SessionStateSampler((_, _) => Task.FromResult<ISqlCommandSink>(server), _ => new SessionFilter { Application = "app" }, TimeSpan.FromMilliseconds(100));
        var root = TestData.TempFolder();
        var phase = new PhaseContext("attach", 0, root, []);
        await sampler.StartAsync(phase, CancellationToken.None);

        // A poll is waited for, not assumed after a fixed time: a loaded machine runs the loop's ticks late.
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (Volatile.Read(ref server.Polls) < 1 && waited.Elapsed < TimeSpan.FromSeconds(60))
        {
            await Task.Delay(20);
        }

        var outcome = await sampler.StopAsync(phase, CancellationToken.None);

        Assert.Equal(CollectorStatus.Ok, outcome.Status);
        Assert.Contains("s.program_name = N'app'", server.Sent[0].Text);
        var states = File.ReadAllLines(Path.Combine(root, "phases/attach/session_states.csv")).Skip(1).Select(l => string.Join(',', l.Split(',').Take(2))).ToArray();
        Assert.Equal(["51,active", "52,idle in transaction", "53,idle"], states);
    }
}
