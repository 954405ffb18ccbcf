using Microsoft.SqlServer.TransactSql.ScriptDom;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Tests;

public sealed class XeSessionBuilderTests
{
    private static XeSessionBuilder Builder(bool callstackRva = true, SessionFilter? filter = null, int maxMb = 512) => new(new XeSessionOptions
    {
        RunId = "ab12cd34ef",
        Filter = filter ?? new SessionFilter { SessionIds = [51, 52, 77] },
        CallstackRva = callstackRva,
        MaxFileMegabytes = maxMb,
    });

    [Theory]
    [InlineData(XeStream.Pages, true)]
    [InlineData(XeStream.Latches, true)]
    [InlineData(XeStream.Latches, false)]
    public void Every_statement_of_a_session_lifecycle_parses(XeStream stream, bool callstackRva)
    {
        var b = Builder(callstackRva);
        foreach (var s in new[] { XeSessionBuilder.DiscoverCallstackActions(), XeSessionBuilder.DiscoverFields(stream), b.DropIfExists(stream), b.Create(stream), b.Start(stream), b.ReadHistogram(stream),
                     b.ReadSessionStats(stream), b.Stop(stream), b.ReadEventFiles(@"C:\Log\probe_ab12cd34ef_pages*.xel"), b.ReadEventFiles(null), b.Drop(stream) })
        {
            TSqlAssert.Parses(s.Text, s.Purpose);
        }
    }

    [Fact]
    public void Pages_session_has_both_events_filtered_to_the_workload_a_clerk_histogram_and_a_capped_file()
    {
        var sql = Builder(maxMb: 200).Create(XeStream.Pages).Text;
        var fragment = (TSqlScript)TSqlAssert.Parses(sql, "pages");
        var create = Assert.IsType<CreateEventSessionStatement>(fragment.Batches[0].Statements[0]);
        Assert.Equal("probe_ab12cd34ef_pages", create.Name.Value);
        Assert.Equal(["page_allocated", "page_freed"], create.EventDeclarations.Select(e => e.ObjectName.MultiPartIdentifier.Identifiers[^1].Value));
        Assert.Equal(["histogram", "event_file"], create.TargetDeclarations.Select(t => t.ObjectName.MultiPartIdentifier.Identifiers[^1].Value));
        Assert.Contains("(sqlserver.session_id = 51 OR sqlserver.session_id = 52 OR sqlserver.session_id = 77)", sql);
        Assert.Contains("source = N'memory_clerk_name', source_type = 0", sql);
        Assert.Contains("max_file_size = (50), max_rollover_files = (4)", sql);
        Assert.Contains("MAX_DISPATCH_LATENCY = 1 SECONDS", sql);
        Assert.Contains("EVENT_RETENTION_MODE = ALLOW_SINGLE_EVENT_LOSS", sql);
    }

    [Fact]
    public void Latch_callstacks_use_callstack_rva_only_when_the_server_lists_it()
    {
        Assert.Contains("source = N'package0.callstack_rva', source_type = 1", Builder(true).Create(XeStream.Latches).Text);
        var older = Builder(false).Create(XeStream.Latches).Text;
        Assert.Contains("source = N'package0.callstack', source_type = 1", older);
        Assert.DoesNotContain("callstack_rva", older);
        Assert.Contains("sqlserver.latch_acquired", older);
    }

    [Fact]
    public void A_session_list_too_long_for_a_predicate_becomes_a_range()
    {
        var ids = Enumerable.Range(51, 200).ToList();
        var predicate = Builder(filter: new SessionFilter { SessionIds = ids }).Predicate();
        Assert.Equal("(sqlserver.session_id >= 51 AND sqlserver.session_id <= 250)", predicate);
        Assert.True(Builder(filter: new SessionFilter { SessionIds = Enumerable.Range(51, 96).ToList() }).Predicate().Length < 3000);
    }

    [Fact]
    public void Attach_filters_become_global_predicates_with_quotes_doubled()
    {
        var b = Builder(filter: new SessionFilter { Database = "Sales", Application = "O'Hare ETL", ExcludeApplication = "SqlWaitProbe-ab12cd34ef" });
        Assert.Equal("sqlserver.database_name = N'Sales' AND sqlserver.client_app_name = N'O''Hare ETL' AND sqlserver.client_app_name <> N'SqlWaitProbe-ab12cd34ef'", b.Predicate());
        TSqlAssert.Parses(b.Create(XeStream.Pages).Text, "attach pages");
        var unfiltered = Builder(filter: new SessionFilter { ExcludeApplication = "SqlWaitProbe-ab12cd34ef" }).Predicate();
        Assert.StartsWith("sqlserver.is_system = 0 AND ", unfiltered);
    }

    [Fact]
    public void Run_id_must_be_safe_for_identifiers() =>
        Assert.Throws<ArgumentException>(() => new XeSessionBuilder(new XeSessionOptions { RunId = "x]; DROP", Filter = new SessionFilter() }));

    [Fact]
    public void Leftover_cleaner_statements_parse_and_touch_only_probe_sessions()
    {
        TSqlAssert.Parses(XeLeftoverCleaner.FindStatement("ab12cd34ef").Text, "find");
        TSqlAssert.Parses(XeLeftoverCleaner.FindStatement(null).Text, "find all");
        TSqlAssert.Parses(XeLeftoverCleaner.RemoveStatement("probe_0011aabbcc_pages").Text, "remove");
        Assert.Contains("NOT LIKE N'probe[_]ab12cd34ef[_]%'", XeLeftoverCleaner.FindStatement("ab12cd34ef").Text);
        Assert.Throws<ArgumentException>(() => XeLeftoverCleaner.RemoveStatement("system_health"));
    }

    [Fact]
    public async Task Leftover_cleaner_finds_and_removes_through_its_sink()
    {
        var sink = new Commands.RecordingSqlSink();
        var cleaner = new XeLeftoverCleaner(sink);
        Assert.Empty(await cleaner.FindNamesAsync("ab12cd34ef", CancellationToken.None));
        Assert.Equal(2, await cleaner.RemoveNamesAsync(["probe_1_pages", "probe_2_latches"], CancellationToken.None));
        Assert.Equal(3, sink.Statements.Count);
        Assert.Contains("DROP EVENT SESSION [probe_2_latches] ON SERVER", sink.Statements[2].Text);
    }

    [Fact]
    public void Event_xml_from_fn_xe_file_target_read_file_becomes_a_page_event()
    {
        const string xml = """
            <event name="page_freed" package="sqlos" timestamp="2026-03-01T10:15:30.123Z">
              <data name="memory_clerk_name"><type name="unicode_string" package="package0"/><value>MEMORYCLERK_SQLQERESERVATIONS</value></data>
              <data name="number_pages"><type name="uint32" package="package0"/><value>9</value></data>
              <action name="session_id" package="sqlserver"><type name="uint16" package="package0"/><value>57</value></action>
            </event>
            """;
        var e = XeEventXml.ToPageEvent(xml, "number_pages");
        Assert.Equal(new PageEvent(new DateTime(2026, 3, 1, 10, 15, 30, 123, DateTimeKind.Utc), "page_freed", 57, "MEMORYCLERK_SQLQERESERVATIONS", 9), e);
        Assert.Equal(DateTimeKind.Utc, e.Utc.Kind);
    }

    [Theory]
    [InlineData(XeStream.Pages, 512, 4_194_304L)]
    [InlineData(XeStream.Pages, 40, 327_680L)]
    [InlineData(XeStream.Latches, 512, XeSessionBuilder.LatchStackWalkCap)]
    public void Every_event_stops_by_itself_after_a_cap_counted_only_over_the_watched_sessions(XeStream stream, int maxMb, long cap)
    {
        // A session left running by a killed probe fires on session ids other connections take over; past the cap its
        // predicate is false and the event walks no stack and writes nothing.
        var sql = Builder(maxMb: maxMb).Create(stream).Text;
        var create = (CreateEventSessionStatement)((TSqlScript)TSqlAssert.Parses(sql, "capped")).Batches[0].Statements[0];
        Assert.All(create.EventDeclarations, e => Assert.NotNull(e.EventDeclarationPredicateParameter));
        var counterAfterFilter = $"sqlserver.session_id = 77) AND package0.counter <= {cap.ToString(System.Globalization.CultureInfo.InvariantCulture)})";
        Assert.Equal(stream == XeStream.Pages ? 2 : 1, System.Text.RegularExpressions.Regex.Matches(sql, System.Text.RegularExpressions.Regex.Escape(counterAfterFilter)).Count);
    }

    [Fact]
    public void Histogram_slots_are_read_whole_so_a_deep_call_stack_is_not_cut()
    {
        var sql = Builder().ReadHistogram(XeStream.Latches).Text;
        Assert.Contains("'nvarchar(max)'", sql);
        Assert.DoesNotContain("nvarchar(4000)", sql);
    }
}
