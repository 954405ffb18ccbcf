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

        /// <summary>The event file the session reports as current.</summary>
        public string CurrentFile { get; init; } = "/nonexistent/probe_r1_pages_0_133.xel";

        /// <summary>The server's UTC clock; null: the server answers nothing to the clock question.</summary>
        public Func<DateTime>? Clock { get; init; }

        /// <summary>The server's count of the files' events by name; null: no rows.</summary>
        public SqlResult? Counts { get; init; }

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
                    [["probe_x", 3L, 0, 0, CurrentFile]]),
                var p when p.StartsWith("read the server's UTC clock", StringComparison.Ordinal) && Clock is not null => new(["utc_now"], [[Clock()]]),
                var p when p.StartsWith("count page events", StringComparison.Ordinal) && Counts is not null => Counts,
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
        Assert.Equal(["read the", "discover pages", "drop XE", "create XE", "start XE", "read histogram", "read dropped-event", "stop XE", "read page", "drop XE"], order);
        Assert.Contains(server.Sent, s => s.Contains("N'/nonexistent/probe_r1_pages*.xel'", StringComparison.Ordinal));
        Assert.Equal(["value,count", "MEMORYCLERK_SOSNODE,1200", "MEMORYCLERK_SQLQERESERVATIONS,40"], File.ReadAllLines(Path.Combine(root, "phases/load/xe/clerk_histogram.csv")));
        var events = File.ReadAllLines(Path.Combine(root, "phases/load/xe/page_events.csv"));
        Assert.Equal("utc,event,session_id,memory_clerk_name,pages", events[0]);
        Assert.Equal("2026-03-01T10:00:01.500Z,page_allocated,61,MEMORYCLERK_SOSNODE,9", events[1]);
        Assert.Contains(phase.Series.Snapshot(), p => p.Series == "xe.pages_allocated_per_sec" && p.Value == 17);
        Assert.Contains(phase.Series.Snapshot(), p => p.Series == "xe.pages_freed_per_sec" && p.Value == 9);
    }

    private static XeCollector Collector(ScriptedServer server) =>
        new((_, _) => Task.FromResult<ISqlCommandSink>(server),
            p => new XeSessionOptions { RunId = "r1", Phase = p.Name, Filter = new SessionFilter { SessionIds = [61] } }, [XeStream.Pages]);

    [Fact]
    public async Task Each_phase_writes_its_own_event_files_reads_only_those_and_deletes_them_from_the_server_after_copying()
    {
        // A folder standing in for the server's LOG folder on this machine, holding the files the server wrote for
        // the baseline and the load phase (a real .xel written by SQL Server, under the names the sessions give).
        var log = TestData.TempFolder();
        var xel = TestData.Path("xel/sqltoolsservice__TestXel_0.xel");
        File.Copy(xel, Path.Combine(log, "probe_r1_baseline_pages_0_133.xel"));
        File.Copy(xel, Path.Combine(log, "probe_r1_load_pages_0_134.xel"));
        var server = new ScriptedServer { CurrentFile = Path.Combine(log, "probe_r1_load_pages_0_134.xel") };
        var root = TestData.TempFolder();
        var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, null, 61)]);
        var collector = Collector(server);

        await collector.StartAsync(phase, CancellationToken.None);
        await collector.StopAsync(phase, CancellationToken.None);

        Assert.Contains(server.Sent, s => s.StartsWith("create XE session", StringComparison.Ordinal));
        Assert.Equal(["probe_r1_load_pages_0_134.xel"], Directory.GetFiles(Path.Combine(root, "phases/load/xe/files")).Select(Path.GetFileName));
        Assert.Equal(["probe_r1_baseline_pages_0_133.xel"], Directory.GetFiles(log).Select(Path.GetFileName));
    }

    [Fact]
    public void The_event_file_name_carries_the_phase()
    {
        var create = new XeSessionBuilder(new XeSessionOptions { RunId = "r1", Phase = "load", Filter = new SessionFilter { SessionIds = [61] } }).Create(XeStream.Pages).Text;
        Assert.Contains("filename = N'probe_r1_load_pages.xel'", create);
        var sweep = new XeSessionOptions { RunId = "r1", Phase = "t8 x", Filter = new SessionFilter() };
        Assert.Equal("probe_r1_t8_x_pages", sweep.FileName(XeStream.Pages));
    }

    [Fact]
    public async Task Page_events_are_moved_to_this_machines_clock_and_kept_to_the_phase_window()
    {
        // The scripted server's clock reads 2026-03-01T10:00:00Z when the test starts: far from this machine's, as a
        // remote server's can be. Its files hold events at 10:00:01.5 (9 allocated, 9 freed) and 10:00:02.5 (17 allocated);
        // the phase's window on this machine's clock covers the server's 10:00:01 to 10:00:02 only.
        var serverEpoch = new DateTime(2026, 3, 1, 10, 0, 0, DateTimeKind.Utc);
        var localStart = DateTime.UtcNow;
        var server = new ScriptedServer { Clock = () => serverEpoch + (DateTime.UtcNow - localStart) };
        var root = TestData.TempFolder();
        var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, null, 61)]);
        var collector = Collector(server);
        await collector.StartAsync(phase, CancellationToken.None);
        phase.StartUtc = localStart.AddSeconds(1);
        phase.EndUtc = localStart.AddSeconds(2);
        await collector.StopAsync(phase, CancellationToken.None);

        var events = File.ReadAllLines(Path.Combine(root, "phases/load/xe/page_events.csv")).Skip(1).ToList();
        Assert.Equal(2, events.Count);
        Assert.All(events, e => Assert.EndsWith(",61,MEMORYCLERK_SOSNODE,9", e, StringComparison.Ordinal));
        var first = DateTime.Parse(events[0].Split(',')[0], System.Globalization.CultureInfo.InvariantCulture, System.Globalization.DateTimeStyles.AdjustToUniversal);
        Assert.InRange(first, localStart.AddSeconds(1.4), localStart.AddSeconds(1.6));
        Assert.DoesNotContain(phase.Series.Snapshot(), p => p.Value == 17);
    }

    [Fact]
    public async Task Copies_the_reader_finds_fewer_events_in_than_the_server_counts_are_read_through_the_server_and_data_quality_says_so()
    {
        // The copied file is a real .xel without page events, standing in for a layout the reader does not know; the
        // scripted server counts 2 page_allocated and 1 page_freed in the same files and streams them when asked.
        var log = TestData.TempFolder();
        File.Copy(TestData.Path("xel/sqltoolsservice__TestXel_0.xel"), Path.Combine(log, "probe_r1_load_pages_0_134.xel"));
        var server = new ScriptedServer
        {
            CurrentFile = Path.Combine(log, "probe_r1_load_pages_0_134.xel"),
            Counts = new(["object_name", "events"], [["page_allocated", 2L], ["page_freed", 1L]]),
        };
        var root = TestData.TempFolder();
        var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, null, 61)]);
        var collector = Collector(server);

        await collector.StartAsync(phase, CancellationToken.None);
        var outcome = await collector.StopAsync(phase, CancellationToken.None);

        Assert.Equal(3, File.ReadAllLines(Path.Combine(root, "phases/load/xe/page_events.csv")).Length - 1);
        Assert.Contains(server.Sent, s => s.StartsWith("read page events from the event files", StringComparison.Ordinal));
        Assert.Contains("page events read through the server: the .xel reader found 0 events in the copies, the server counts page_allocated 2, page_freed 1", outcome.Error, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(log));
    }
}
