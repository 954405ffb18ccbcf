using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>The XE collector's life cycle and files, against a scripted sink (a stand-in for SQL Server, which this machine cannot run).</summary>
public sealed class XeCollectorTests
{
    private sealed class ScriptedServer : ISqlCommandSink
    {
        public List<string> Sent { get; } = [];

        public bool IsDryRun => false;

        public Task ExecuteAsync(SqlStatement statement, CancellationToken cancellationToken)
        {
            Sent.Add(statement.Purpose);
            return Task.CompletedTask;
        }

        public Task<SqlResult> QueryAsync(SqlStatement statement, CancellationToken cancellationToken)
        {
            Sent.Add(statement.Purpose);
            SqlResult result = statement.Purpose switch
            {
                var p when p.StartsWith("discover", StringComparison.Ordinal) => new(["object_name", "name", "type_name", "column_type", "description"],
                    [["page_allocated", "memory_clerk_name", "unicode_string", "data", ""], ["page_allocated", "number_pages", "uint32", "data", ""]]),
                var p when p.StartsWith("read histogram", StringComparison.Ordinal) => new(["value", "count"],
                    [["MEMORYCLERK_SOSNODE", 1200L], ["MEMORYCLERK_SQLQERESERVATIONS", 40L]]),
                var p when p.StartsWith("read dropped", StringComparison.Ordinal) => new(["name", "dropped_event_count", "dropped_buffer_count", "largest_event_dropped_size", "current_file"],
                    [["probe_x", 3L, 0, 0, "/nonexistent/probe_r1_pages_0_133.xel"]]),
                _ => SqlResult.Empty,
            };
            return Task.FromResult(result);
        }

        public async IAsyncEnumerable<object?[]> StreamAsync(SqlStatement statement, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
        {
            Sent.Add(statement.Purpose + " " + statement.Text);
            await Task.CompletedTask;
            foreach (var (name, second, pages) in new[] { ("page_allocated", 1, 9), ("page_freed", 1, 9), ("page_allocated", 2, 17) })
            {
                yield return ["page_allocated", $"""<event name="{name}" package="sqlos" timestamp="2026-03-01T10:00:0{second}.500Z"><data name="memory_clerk_name"><value>MEMORYCLERK_SOSNODE</value></data><data name="number_pages"><value>{pages}</value></data><action name="session_id" package="sqlserver"><value>61</value></action></event>""", "f", 0L];
            }
        }
    }

    [Fact]
    public async Task Creates_starts_reads_histogram_stops_reads_events_and_drops_with_losses_reported()
    {
        var server = new ScriptedServer();
        var collector = new XeCollector((_, _) => Task.FromResult<ISqlCommandSink>(server),
            p => new XeSessionOptions { RunId = "r1", Filter = new SessionFilter { SessionIds = [61] } }, [XeStream.Pages]);
        var root = TestData.TempFolder();
        var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, null, 61)]);
        await collector.StartAsync(phase, CancellationToken.None);
        var outcome = await collector.StopAsync(phase, CancellationToken.None);

        Assert.Equal(CollectorStatus.Partial, outcome.Status);
        Assert.Equal(3, outcome.LostEvents);
        var order = server.Sent.Select(s => s.Split(' ')[0] + " " + s.Split(' ')[1]).ToList();
        Assert.Equal(["discover pages", "drop XE", "create XE", "start XE", "read histogram", "read dropped-event", "stop XE", "read page", "drop XE"], order);
        Assert.Contains(server.Sent, s => s.Contains("N'/nonexistent/probe_r1_pages*.xel'", StringComparison.Ordinal));
        Assert.Equal(["value,count", "MEMORYCLERK_SOSNODE,1200", "MEMORYCLERK_SQLQERESERVATIONS,40"], File.ReadAllLines(Path.Combine(root, "phases/load/xe/clerk_histogram.csv")));
        var events = File.ReadAllLines(Path.Combine(root, "phases/load/xe/page_events.csv"));
        Assert.Equal("utc,event,session_id,memory_clerk_name,pages", events[0]);
        Assert.Equal("2026-03-01T10:00:01.500Z,page_allocated,61,MEMORYCLERK_SOSNODE,9", events[1]);
        Assert.Contains(phase.Series.Snapshot(), p => p.Series == "xe.pages_allocated_per_sec" && p.Value == 17);
        Assert.Contains(phase.Series.Snapshot(), p => p.Series == "xe.pages_freed_per_sec" && p.Value == 9);
    }
}
