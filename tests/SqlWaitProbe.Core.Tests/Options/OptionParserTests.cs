using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Core.Tests.Options;

public sealed class OptionParserTests
{
    [Theory]
    [InlineData("15s", 15)]
    [InlineData("2m", 120)]
    [InlineData("1h", 3600)]
    [InlineData("500ms", 0.5)]
    [InlineData("30", 30)]
    [InlineData("1.5s", 1.5)]
    [InlineData("1h30m", 5400)]
    [InlineData("2m30s", 150)]
    [InlineData("1h0m5s", 3605)]
    [InlineData("01:30:00", 5400)]
    [InlineData("1:02:03", 3723)]
    [InlineData("02:30", 150)]
    [InlineData("00:00:01.5", 1.5)]
    public void Durations_parse(string text, double seconds) => Assert.Equal(seconds, DurationParser.Parse(text).TotalSeconds, 6);

    [Theory]
    [InlineData("0s")]
    [InlineData("-1s")]
    [InlineData("abc")]
    [InlineData("10x")]
    [InlineData("")]
    [InlineData("30m1h")]
    [InlineData("1h1h")]
    [InlineData("00:61")]
    [InlineData("1:60:00")]
    [InlineData("1::2")]
    [InlineData("00:00:00")]
    [InlineData("1:2:3:4")]
    [InlineData("NaN")]
    [InlineData("NaNs")]
    [InlineData("Infinity")]
    [InlineData("-Infinity")]
    [InlineData("1e400")]
    [InlineData("1e308s")]
    [InlineData("1e308")]
    [InlineData("99999999999999999999h")]
    [InlineData("0.0000001")]
    [InlineData("8d")]
    public void Bad_durations_are_bad_input(string text) => Assert.Throws<BadInputException>(() => DurationParser.Parse(text));

    [Fact]
    public void Threads_parse_as_one_count_or_a_sweep()
    {
        Assert.Equal([8], ThreadsParser.Parse("8"));
        Assert.Equal([1, 2, 4, 8], ThreadsParser.Parse("1, 2,4,8"));
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-2")]
    [InlineData("2,x")]
    [InlineData("4,4")]
    [InlineData("99999")]
    public void Bad_threads_are_bad_input(string text) => Assert.Throws<BadInputException>(() => ThreadsParser.Parse(text));

    [Fact]
    public void Plan_puts_the_baseline_first_and_names_sweep_levels_by_count()
    {
        var single = CapturePlan.Build([2], baseline: true, TimeSpan.FromSeconds(10), null);
        Assert.Equal(["baseline:1", "load:2"], single.Phases.Select(p => $"{p.Name}:{p.Threads}"));
        var sweep = CapturePlan.Build([1, 2, 4], baseline: true, null, null);
        Assert.Equal(["baseline", "1", "2", "4"], sweep.Phases.Select(p => p.Name));
        Assert.Equal(TimeSpan.FromSeconds(30), sweep.Duration);
        var noBaseline = CapturePlan.Build([8], baseline: false, null, 5);
        Assert.Equal(["load"], noBaseline.Phases.Select(p => p.Name));
        Assert.Null(noBaseline.Duration);
    }

    [Theory]
    [InlineData(577, 8, "1 session runs 73, 7 run 72", 73, 72)]
    [InlineData(576, 96, "576 in all, 6 per session", 6, 6)]
    [InlineData(576, 32, "576 in all, 18 per session", 18, 18)]
    [InlineData(7, 2, "1 session runs 4, 1 runs 3", 4, 3)]
    [InlineData(3, 8, "3 sessions run 1, 5 run 0", 1, 0)]
    public void A_total_of_iterations_gives_the_remainder_one_each_to_the_first_sessions_and_says_so(long total, int sessions, string says, long first, long last)
    {
        var plan = CapturePlan.Build([sessions], baseline: false, null, null, total);
        Assert.Null(plan.Duration);
        var each = Enumerable.Range(0, sessions).Select(i => plan.IterationsOf(i, sessions)!.Value).ToArray();
        Assert.Equal(total, each.Sum());
        Assert.Equal(first, each[0]);
        Assert.Equal(last, each[^1]);
        Assert.True(each.Max() - each.Min() <= 1, "no session runs more than one execution more than another");
        Assert.Contains(says, plan.DescribeIterations(sessions), StringComparison.Ordinal);
        Assert.Equal(total, plan.PhaseExecutions(sessions));
    }

    [Theory]
    [InlineData(4, 1.0)]
    [InlineData(10, 1.5)]
    [InlineData(120, 5.0)]
    [InlineData(2, 0.6)]
    public void Uninstrumented_slice_is_bounded(double phaseSeconds, double sliceSeconds) =>
        Assert.Equal(sliceSeconds, CapturePlan.UninstrumentedSlice(TimeSpan.FromSeconds(phaseSeconds)).TotalSeconds, 6);
}
