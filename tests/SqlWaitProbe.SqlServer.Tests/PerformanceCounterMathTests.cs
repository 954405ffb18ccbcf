using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Tests;

public sealed class PerformanceCounterMathTests
{
    private const string Stats = "SQLServer:SQL Statistics";
    private const string Buffer = "SQLServer:Buffer Manager";
    private const string Locks = "SQLServer:Locks";
    private const string Access = "SQLServer:Access Methods";

    private static PerformanceCounterRow R(string obj, string counter, long value, int type, string instance = "") => new(obj, counter, instance, value, type);

    private static readonly PerformanceCounterRow[] Before =
    [
        R(Stats, "Batch Requests/sec", 10_000, PerformanceCounterMath.BulkCount),
        R("SQLServer:Memory Manager", "Memory Grants Pending", 0, PerformanceCounterMath.LargeRawCount),
        R(Buffer, "Buffer cache hit ratio", 950, PerformanceCounterMath.LargeRawFraction),
        R(Buffer, "Buffer cache hit ratio base", 1000, PerformanceCounterMath.LargeRawBase),
        R(Locks, "Average Wait Time (ms)", 5_000, PerformanceCounterMath.AverageBulk, "_Total"),
        R(Locks, "Average Wait Time Base", 100, PerformanceCounterMath.LargeRawBase, "_Total"),
        R(Stats, "SQL Compilations/sec", 9_000, PerformanceCounterMath.BulkCount),
        R(Access, "Worktables From Cache Ratio", 30, PerformanceCounterMath.LargeRawFraction),
        R(Access, "Worktables From Cache Base", 40, PerformanceCounterMath.LargeRawBase),
    ];

    private static readonly PerformanceCounterRow[] After =
    [
        R(Stats, "Batch Requests/sec", 12_000, PerformanceCounterMath.BulkCount),
        R("SQLServer:Memory Manager", "Memory Grants Pending", 7, PerformanceCounterMath.LargeRawCount),
        R(Buffer, "Buffer cache hit ratio", 990, PerformanceCounterMath.LargeRawFraction),
        R(Buffer, "Buffer cache hit ratio base", 1000, PerformanceCounterMath.LargeRawBase),
        R(Locks, "Average Wait Time (ms)", 6_200, PerformanceCounterMath.AverageBulk, "_Total"),
        R(Locks, "Average Wait Time Base", 104, PerformanceCounterMath.LargeRawBase, "_Total"),
        R(Stats, "SQL Compilations/sec", 40, PerformanceCounterMath.BulkCount),
        R(Access, "Worktables From Cache Ratio", 36, PerformanceCounterMath.LargeRawFraction),
        R(Access, "Worktables From Cache Base", 48, PerformanceCounterMath.LargeRawBase),
    ];

    private static PerformanceCounterValue V(string counter) =>
        Assert.Single(PerformanceCounterMath.Compute(Before, After, 2.0), v => v.CounterName == counter);

    [Fact]
    public void Bulk_count_is_a_rate_per_second() => Assert.Equal(1000.0, V("Batch Requests/sec").Value);

    [Fact]
    public void Raw_count_is_the_point_value() => Assert.Equal(7.0, V("Memory Grants Pending").Value);

    [Fact]
    public void Raw_fraction_is_a_percentage_of_its_base() => Assert.Equal(99.0, V("Buffer cache hit ratio").Value, 6);

    [Fact]
    public void A_ratio_finds_the_base_that_drops_the_word_ratio() => Assert.Equal(75.0, V("Worktables From Cache Ratio").Value, 6);

    [Fact]
    public void Average_bulk_divides_the_deltas_and_finds_a_base_without_the_units()
    {
        var v = V("Average Wait Time (ms)");
        Assert.Equal(300.0, v.Value, 6);
        Assert.Equal("average", v.Kind);
    }

    [Fact]
    public void Bases_are_not_reported() =>
        Assert.DoesNotContain(PerformanceCounterMath.Compute(Before, After, 2.0), v => v.Type == PerformanceCounterMath.LargeRawBase);

    [Fact]
    public void A_rate_counter_that_decreased_restarted_from_zero()
    {
        var v = V("SQL Compilations/sec");
        Assert.True(v.Restarted);
        Assert.Equal(20.0, v.Value);
    }
}
