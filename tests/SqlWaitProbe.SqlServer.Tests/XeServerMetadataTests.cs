using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>The XE sessions follow the server's own metadata (sys.dm_xe_objects, sys.dm_xe_object_columns), not its version.</summary>
public sealed class XeServerMetadataTests
{
    private static readonly PhaseContext Phase = new("load", 2, Path.GetTempPath(), []);

    private static SqlResult Actions(params string[] names) =>
        new(["package_name", "name", "object_type"], [.. names.Select(n => new object?[] { "package0", n, "action" })]);

    private static SqlResult Fields(params string[] names) =>
        new(["object_name", "name", "type_name", "column_type", "description"], [.. names.Select(n => new object?[] { "page_allocated", n, "uint32", "data", "" })]);

    private static async Task<ScriptedSqlSink> StartAsync(XeStream stream, Dictionary<string, SqlResult> answers)
    {
        var sink = new ScriptedSqlSink(answers);
        var collector = new XeCollector((_, _) => Task.FromResult<ISqlCommandSink>(sink),
            _ => new XeSessionOptions { RunId = "ab12cd34ef", Filter = new SessionFilter { SessionIds = [51] } }, [stream]);
        await collector.StartAsync(Phase, CancellationToken.None);
        return sink;
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task The_latch_session_uses_callstack_rva_exactly_when_the_server_lists_it(bool listed)
    {
        var answer = listed ? Actions("callstack", "callstack_rva") : Actions("callstack");
        var sink = await StartAsync(XeStream.Latches, new() { ["discover call-stack actions"] = answer });
        Assert.Equal("discover call-stack actions", sink.Sent[0].Purpose);
        var create = sink.Sent.Single(s => s.Purpose.StartsWith("create XE session", StringComparison.Ordinal)).Text;
        Assert.Equal(listed, create.Contains("package0.callstack_rva", StringComparison.Ordinal));
        Assert.Contains("source = N'package0.callstack" + (listed ? "_rva" : "") + "', source_type = 1", create);
    }

    [Fact]
    public async Task A_pages_event_without_memory_clerk_name_stops_the_capture_before_any_session_is_created()
    {
        var e = await Assert.ThrowsAsync<EnvironmentProblemException>(() => StartAsync(XeStream.Pages, new() { ["discover pages event fields"] = Fields("number_pages") }));
        Assert.Contains("memory_clerk_name", e.OneLine);
        Assert.Contains("--xe pages", e.OneLine);
    }

    [Fact]
    public async Task The_pages_session_does_not_ask_for_call_stacks()
    {
        var sink = await StartAsync(XeStream.Pages, new() { ["discover pages event fields"] = Fields("memory_clerk_name", "number_pages") });
        Assert.DoesNotContain(sink.Sent, s => s.Purpose == "discover call-stack actions");
        Assert.Contains(sink.Sent, s => s.Purpose.StartsWith("start XE session", StringComparison.Ordinal));
    }

    [Fact]
    public async Task The_dry_run_shows_the_metadata_queries_and_what_each_answer_changes()
    {
        var statements = await DryRunRecorder.RecordAsync(
            new SqlServerSettings { RunId = "0a1b2c3d4e", XeStreams = [XeStream.Pages, XeStream.Latches] },
            new Connection.SqlServerConnectionSettings { Server = "localhost", RunId = "0a1b2c3d4e" }, [("attach", 0)], "10 s", CancellationToken.None);
        var text = string.Join("\n", statements.Select(s => s.Purpose + " " + s.Text));
        Assert.Contains("sys.dm_xe_objects", text);
        Assert.Contains("sys.dm_xe_object_columns", text);
        Assert.Contains("if the answer lists callstack_rva, the latch session collects package0.callstack_rva", text);
        Assert.Contains("without a memory_clerk_name field the capture stops", text);
    }

    [Theory]
    [InlineData(13, false)]
    [InlineData(15, false)]
    [InlineData(16, true)]
    [InlineData(17, true)]
    public async Task View_server_performance_state_is_asked_only_of_servers_that_know_it(int major, bool asked)
    {
        var statements = await DryRunRecorder.RecordAsync(
            new SqlServerSettings { RunId = "0a1b2c3d4e" },
            new Connection.SqlServerConnectionSettings { Server = "localhost", RunId = "0a1b2c3d4e" }, [("attach", 0)], "10 s", CancellationToken.None, major);
        var permission = statements.Single(s => s.Purpose.EndsWith("permission check", StringComparison.Ordinal)).Text;
        Assert.Equal(asked, permission.Contains("VIEW SERVER PERFORMANCE STATE", StringComparison.Ordinal));
        Assert.Contains("VIEW SERVER STATE", permission);
        Assert.Contains(statements, s => s.Text.Contains($"major version {major}", StringComparison.Ordinal));
    }
}
