using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Counts that would overflow a 64-bit sum, and counts that are not finite non-negative numbers, are bad input: exit 2 and
/// one line naming the file and line, from every command that sums them; never a wrapped total or an unexpected error.
/// </summary>
public sealed class OverflowingCountsTests
{
    private const string TwoHugeLines = "postgres;a;b 9223372036854775807\npostgres;a;b 9223372036854775807\n";

    public static TheoryData<string> StackCommands() => ["fold", "flamegraph", "speedscope", "pprof", "chrome-trace", "modules", "focus", "diff"];

    [Theory]
    [MemberData(nameof(StackCommands))]
    public async Task Folded_counts_that_overflow_are_exit_2_naming_the_line(string command)
    {
        var folder = TestData.TempFolder();
        var input = Path.Combine(folder, "two.folded");
        File.WriteAllText(input, TwoHugeLines);

        var (exit, stdout, line, output) = await RunAsync(command, folder, input);

        Assert.Equal(2, exit);
        Assert.StartsWith($"probe: {input}:2: the counts add up to more than 9223372036854775807", line);
        Assert.Equal(string.Empty, stdout);
        Assert.False(File.Exists(output));
    }

    [Theory]
    [InlineData("NaN")]
    [InlineData("Infinity")]
    [InlineData("-Infinity")]
    [InlineData("1e308")]
    [InlineData("9223372036854775808")]
    [InlineData("-5")]
    public async Task Counts_that_are_not_finite_non_negative_64_bit_numbers_are_exit_2_naming_the_line(string count)
    {
        foreach (var command in new[] { "fold", "modules", "flamegraph" })
        {
            var folder = TestData.TempFolder();
            var input = Path.Combine(folder, "bad.folded");
            File.WriteAllText(input, $"postgres;a;b 3\npostgres;a;c {count}\n");

            var (exit, _, line, output) = await RunAsync(command, folder, input);

            Assert.Equal(2, exit);
            Assert.StartsWith($"probe: {input}:2: the count '{count}' is not a finite, non-negative number", line);
            Assert.False(File.Exists(output));
        }
    }

    [Theory]
    [InlineData("fold")]
    [InlineData("modules")]
    [InlineData("flamegraph")]
    public async Task Perf_periods_that_overflow_are_exit_2_naming_the_event_line(string command)
    {
        var folder = TestData.TempFolder();
        var input = Path.Combine(folder, "huge.perf.txt");
        const string sample = "postgres 1234 [000] 100.000001: 9223372036854775807 cpu-clock: \n"
            + "\t          400577 func_b (/usr/bin/postgres)\n"
            + "\t          400600 main (/usr/bin/postgres)\n\n";
        File.WriteAllText(input, sample + sample);

        var (exit, _, line, output) = await RunAsync(command, folder, input);

        Assert.Equal(2, exit);
        Assert.StartsWith($"probe: {input}:5: the counts add up to more than 9223372036854775807", line);
        Assert.False(File.Exists(output));
    }

    [Theory]
    [InlineData("1e308", "has a weight of 1E+308")]
    [InlineData("5000000000000000000", "add up to more than 9223372036854775807")]
    public async Task Speedscope_weights_that_do_not_fit_are_exit_2(string weight, string expected)
    {
        var folder = TestData.TempFolder();
        var input = Path.Combine(folder, "huge.speedscope.json");
        File.WriteAllText(input, $$"""
            {"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"},{"name":"b"}]},
             "profiles":[{"type":"sampled","name":"postgres","unit":"none","startValue":0,"endValue":1,"samples":[[0,1],[0]],"weights":[{{weight}},{{weight}}]}]}
            """);

        var (exit, _, line, output) = await RunAsync("flamegraph", folder, input);

        Assert.Equal(2, exit);
        Assert.StartsWith($"probe: {input}: ", line);
        Assert.Contains(expected, line);
        Assert.False(File.Exists(output));
    }

    [Fact]
    public async Task The_largest_total_that_fits_is_summed_exactly_and_its_shares_stay_between_0_and_1()
    {
        var folder = TestData.TempFolder();
        var input = Path.Combine(folder, "max.folded");
        File.WriteAllText(input, "postgres;postgres!a;postgres!b 9223372036854775806\npostgres;postgres!a;libc.so.6!c 1\n");

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("stacks", "modules", input, "--format", "csv");

        Assert.True(exit == 0, stderr);
        var lines = stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Contains("postgres,postgres,0,9223372036854775806,9223372036854775807,1,1", lines);
        Assert.Contains("postgres,libc.so.6,0,1,1,0,0", lines);
    }

    private static async Task<(int Exit, string Stdout, string Line, string Output)> RunAsync(string command, string folder, string input)
    {
        var output = Path.Combine(folder, "out.result");
        string[] args = command switch
        {
            "modules" => ["stacks", command, input],
            "focus" => ["stacks", command, input, "--focus", "a"],
            "diff" => ["stacks", command, input, input, "-o", output],
            _ => ["stacks", command, input, "-o", output],
        };
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync(args);
        Assert.DoesNotContain("   at ", stderr);
        Assert.DoesNotContain("unexpected", stderr);
        var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(lines.Length == 1, stderr);
        Assert.DoesNotContain(Directory.GetFiles(folder), f => f.EndsWith(".tmp", StringComparison.Ordinal));
        return (exit, stdout, lines[0], output);
    }
}
