using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.TestSupport;
using Xunit.Abstractions;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>The .xel reader on a real file written by SQL Server (tests/data/xel, from microsoft/sqltoolsservice).</summary>
public sealed class XelFileReaderTests(ITestOutputHelper output)
{
    private static readonly string File0 = TestData.Path("xel/sqltoolsservice__TestXel_0.xel");

    [Fact]
    public void Reads_all_149_events_first_rpc_completed_last_sql_batch_completed()
    {
        var events = XelFileReader.Read(File0).ToList();
        foreach (var e in events.Take(2).Concat(events.TakeLast(1)))
        {
            output.WriteLine($"{e.Utc:O} {e.Name} fields: {string.Join(", ", e.Fields.Select(f => $"{f.Key}={Short(f.Value)}"))} actions: {string.Join(", ", e.Actions.Select(a => $"{a.Key}={Short(a.Value)}"))}");
        }

        Assert.Equal(149, events.Count);
        Assert.Equal("rpc_completed", events[0].Name);
        Assert.Equal("sql_batch_completed", events[^1].Name);
        Assert.DoesNotContain(events, e => e.Name.StartsWith("unknown", StringComparison.Ordinal));
        Assert.Equal(120, events.Count(e => e.Name == "existing_connection"));
    }

    private static string Short(object? v) => v is string s && s.Length > 40 ? s[..40] + "…" : v?.ToString() ?? "null";

    [Fact]
    public void Timestamps_are_utc_in_order_and_on_the_day_the_trace_was_taken()
    {
        var events = XelFileReader.Read(File0).ToList();
        Assert.All(events, e => Assert.Equal(DateTimeKind.Utc, e.Utc.Kind));
        Assert.All(events, e => Assert.Equal(new DateTime(2017, 10, 17), e.Utc.Date));
        Assert.True(events.Zip(events.Skip(1)).Count(p => p.First.Utc <= p.Second.Utc) >= events.Count - 10, "timestamps mostly ascend");
    }

    [Fact]
    public void Fields_and_actions_decode_to_the_values_the_server_wrote()
    {
        var events = XelFileReader.Read(File0).ToList();
        var first = events[0];
        Assert.Equal("sp_prepare", first.Fields["object_name"]);
        Assert.StartsWith("declare @p1 int", (string)first.Fields["statement"]!);
        Assert.Equal(56UL, first.Fields["duration"]);
        var second = events[1];
        Assert.Equal("sp_describe_first_result_set", second.Fields["object_name"]);
        Assert.Equal(16000UL, second.Fields["cpu_time"]);
        Assert.Equal(14041UL, second.Fields["duration"]);
        Assert.Equal(184UL, second.Fields["logical_reads"]);
        Assert.Equal("SQLServerCEIP", events[^1].Actions["client_app_name"]);
        Assert.StartsWith("ALTER EVENT SESSION [telemetry_xevents]", (string)events[^1].Fields["batch_text"]!);
        Assert.Equal("SQL Server Data Collector - Controller", first.Actions["client_app_name"]);
        Assert.Equal(182UL, first.Actions["session_id"]);
        Assert.Equal(@"NTDEV\DAVIDSHI-SRV$", first.Actions["server_principal_name"]);
    }

    [Fact]
    public void A_file_that_is_not_xel_is_bad_input()
    {
        var path = Path.Combine(TestData.TempFolder(), "not.xel");
        File.WriteAllBytes(path, new byte[4096]);
        Assert.Throws<BadInputException>(() => XelFileReader.Read(path).ToList());
    }
}
