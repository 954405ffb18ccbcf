using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// <c>probe cleanup --server</c> on the event files of a killed capture. No SQL Server runs here: a scripted stand-in
/// answers where the server keeps its files (its machine and its error log in a folder of this test, standing in for
/// the server's LOG folder), and the files are copies of a real event file under the names the server gives.
/// </summary>
public sealed class XeLeftoverCleanerTests
{
    private const string Host = "SQLPROD01";
    private static readonly string RealXel = TestData.Path("xel/sqltoolsservice__TestXel_0.xel");

    private static RunResource Killed => new()
    {
        Name = "xe-pages",
        Description = "XE session probe_k7q2m9x4_pages",
        XeSession = "probe_k7q2m9x4_pages",
        XeEventFiles = ["probe_k7q2m9x4_load_pages"],
    };

    private static (ScriptedSqlSink Sink, string Log) Server(string machine)
    {
        var log = TestData.TempFolder("probe-xe-log");
        var sink = new ScriptedSqlSink(new Dictionary<string, SqlResult>
        {
            ["where the server keeps its event files"] = new(["machine", "error_log"], [[machine, Path.Combine(log, "ERRORLOG")]]),
        });
        return (sink, log);
    }

    [Fact]
    public async Task Only_the_event_files_the_killed_run_recorded_are_deleted_after_its_session_is_dropped()
    {
        var (sink, log) = Server(Host);
        string[] runs = ["probe_k7q2m9x4_load_pages_0_133472691234560000.xel", "probe_k7q2m9x4_load_pages_0_133472691299990000.xel"];
        string[] others =
        [
            "probe_a1b2c3d4_load_pages_0_133472691234560000.xel",    // another run's
            "probe_k7q2m9x4_baseline_pages_0_133472690000000000.xel", // a phase the record does not name
            "probe_k7q2m9x4_load_pages_extra_0_1.xel",                // a longer name that starts like it
            "probe_k7q2m9x4_load_pages_0_1.xel.bak",                  // not the server's rollover form
            "system_health_0_133472690000000000.xel",                 // the server's own session
        ];
        foreach (var name in runs.Concat(others))
        {
            File.Copy(RealXel, Path.Combine(log, name));
        }

        File.WriteAllText(Path.Combine(log, "probe_k7q2m9x4_load_pages_0_9.xel"), "a file of that name that is no event file");

        var outcome = await new XeLeftoverCleaner(sink, Host).CleanAsync(Killed, CancellationToken.None);

        Assert.Contains("dropped XE session probe_k7q2m9x4_pages", outcome, StringComparison.Ordinal);
        Assert.Contains($"deleted 2 event file(s) probe_k7q2m9x4_load_pages_0_*.xel in {log}", outcome, StringComparison.Ordinal);
        Assert.Contains("left probe_k7q2m9x4_load_pages_0_9.xel (not an event file)", outcome, StringComparison.Ordinal);
        Assert.All(runs, name => Assert.False(File.Exists(Path.Combine(log, name)), name));
        Assert.All(others, name => Assert.True(File.Exists(Path.Combine(log, name)), name));
        var drop = Assert.Single(sink.Sent, s => s.Purpose.StartsWith("drop leftover XE session", StringComparison.Ordinal));
        Assert.Contains("DROP EVENT SESSION [probe_k7q2m9x4_pages] ON SERVER", drop.Text, StringComparison.Ordinal);
        Assert.True(sink.Sent.IndexOf(drop) < sink.Sent.FindIndex(s => s.Purpose == "where the server keeps its event files"), "the session is dropped before its files are touched");
    }

    [Fact]
    public async Task A_server_on_another_machine_keeps_its_files_and_the_outcome_says_where()
    {
        var (sink, log) = Server("SQLPROD02");
        var file = Path.Combine(log, "probe_k7q2m9x4_load_pages_0_133472691234560000.xel");
        File.Copy(RealXel, file);

        var outcome = await new XeLeftoverCleaner(sink, Host).CleanAsync(Killed, CancellationToken.None);

        Assert.True(File.Exists(file));
        Assert.Contains("its event files probe_k7q2m9x4_load_pages_0_*.xel stay on SQLPROD02, which is not this machine", outcome, StringComparison.Ordinal);
        Assert.Contains(sink.Sent, s => s.Text.Contains("DROP EVENT SESSION [probe_k7q2m9x4_pages]", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("probe_a1b2c3d4_load_pages")]   // another run's name in this run's record
    [InlineData("probe_k7q2m9x4_x/../../other")] // a name that would leave the folder
    [InlineData("system_health")]
    public async Task A_recorded_name_that_is_not_the_runs_own_deletes_nothing(string recorded)
    {
        var (sink, log) = Server(Host);
        var victim = Path.Combine(log, "probe_a1b2c3d4_load_pages_0_1.xel");
        var health = Path.Combine(log, "system_health_0_1.xel");
        File.Copy(RealXel, victim);
        File.Copy(RealXel, health);

        var outcome = await new XeLeftoverCleaner(sink, Host).CleanAsync(Killed with { XeEventFiles = [recorded] }, CancellationToken.None);

        Assert.True(File.Exists(victim));
        Assert.True(File.Exists(health));
        Assert.Contains("not its run's, so no file was deleted", outcome, StringComparison.Ordinal);
    }
}
