namespace SqlWaitProbe.Cli.Tests;

public sealed class CaptureBadInputTests
{
    [Theory]
    [InlineData("unknown postgres workload", "capture", "--workload", "no-such-workload")]
    [InlineData("--threads", "capture", "--workload", "noop", "--threads", "0")]
    [InlineData("connection string", "capture", "--workload", "noop", "--server", "Host=;;==")]
    [InlineData("--duration", "capture", "--workload", "noop", "--duration", "ten")]
    [InlineData("--engine", "capture", "--engine", "oracle", "--workload", "noop")]
    [InlineData("sqlserver only", "capture", "--workload", "noop", "--xe", "pages")]
    [InlineData("--iterations", "capture", "--workload", "noop", "--duration", "5s", "--iterations", "10")]
    [InlineData("Microsoft.Data.SqlClient.Extensions.Azure", "capture", "--engine", "sqlserver", "--server", "Server=db1;Authentication=Active Directory Default", "--attach", "--dry-run")]
    [InlineData("Microsoft.Data.SqlClient.Extensions.Azure", "check", "--engine", "sqlserver", "--server", "Server=db1;Authentication=Active Directory Interactive")]
    public async Task Bad_input_is_one_line_and_exit_code_2(string expected, params string[] args)
    {
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), args);
        Assert.Equal(2, exit);
        var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.InRange(lines.Length, 1, 3);
        Assert.Contains(expected, stderr);
        Assert.DoesNotContain("   at ", stderr);
    }

    /// <summary>Every numeric option of capture, demo and attach, given a value that is not finite, absurd or out of bounds.</summary>
    public static TheoryData<string, string[]> NumericOptions() => new()
    {
        { "--duration 'NaNs' is not a positive duration", ["capture", "--workload", "noop", "--duration", "NaNs"] },
        { "--duration 'NaN' is not a positive duration", ["capture", "--workload", "noop", "--duration", "NaN"] },
        { "--duration 'Infinity' is not a positive duration", ["capture", "--workload", "noop", "--duration", "Infinity"] },
        { "--duration '1e308s' is not a positive duration", ["capture", "--workload", "noop", "--duration", "1e308s"] },
        { "--duration '1e400' is not a positive duration", ["capture", "--workload", "noop", "--duration", "1e400"] },
        { "--duration '99999999999999999999h' is longer than 7 days", ["capture", "--workload", "noop", "--duration", "99999999999999999999h"] },
        { "--max-duration 'NaN' is not a positive duration", ["capture", "--workload", "noop", "--max-duration", "NaN"] },
        { "--max-duration '-Infinity' is not a positive duration", ["capture", "--workload", "noop", "--max-duration", "-Infinity"] },
        { "--scale 1E+30 is out of bounds: give a number above 0 and at most 100", ["capture", "--workload", "hashbytes", "--scale", "1e30"] },
        { "--scale NaN is out of bounds", ["capture", "--workload", "hashbytes", "--scale", "NaN"] },
        { "--scale Infinity is out of bounds", ["capture", "--workload", "hashbytes", "--scale", "Infinity"] },
        { "--scale 0 is out of bounds", ["capture", "--workload", "hashbytes", "--scale", "0"] },
        { "--scale 101 is out of bounds", ["capture", "--workload", "hashbytes", "--scale", "101"] },
        { "--scale 1E+30 is out of bounds", ["capture", "--engine", "sqlserver", "--server", "localhost", "--workload", "hashbytes", "--scale", "1e30", "--dry-run"] },
        { "--scale 1E+30 is out of bounds", ["workloads", "show", "hashbytes", "--scale", "1e30"] },
        { "--iterations must be at least 1", ["capture", "--workload", "noop", "--iterations", "-5"] },
        { "--iterations", ["capture", "--workload", "noop", "--iterations", "1e30"] },
        { "--threads", ["capture", "--workload", "noop", "--threads", "NaN"] },
        { "--threads", ["capture", "--workload", "noop", "--threads", "99999999999999999999"] },
        { "--sample-hz must be from 1 to 50000", ["capture", "--workload", "noop", "--sample-hz", "0"] },
        { "--sample-hz", ["capture", "--workload", "noop", "--sample-hz", "Infinity"] },
        { "--max-perf-mb", ["capture", "--workload", "noop", "--max-perf-mb", "1e30"] },
        { "--min-free-disk-mb must be 0 or more MB", ["capture", "--workload", "noop", "--min-free-disk-mb", "-1"] },
        { "--min-free-disk-mb", ["capture", "--workload", "noop", "--min-free-disk-mb", "NaN"] },
        { "--max-xe-mb", ["capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--xe", "pages", "--max-xe-mb", "Infinity", "--dry-run"] },
        { "--snapshot-interval 'NaN'", ["capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--snapshot-interval", "NaN", "--dry-run"] },
        { "--snapshot-interval 'Infinity'", ["capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--snapshot-interval", "Infinity", "--dry-run"] },
        { "--duration 'NaNs' is not a positive duration", ["capture", "--engine", "postgres", "--attach", "--server", "Host=127.0.0.1;Port=1;Username=x", "--duration", "NaNs"] },
        { "--duration 'Infinity' is not a positive duration", ["capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--duration", "Infinity", "--dry-run"] },
    };

    [Theory]
    [MemberData(nameof(NumericOptions))]
    public async Task Numeric_options_that_are_not_finite_or_out_of_bounds_are_one_line_and_exit_code_2(string expected, string[] args)
    {
        var dir = Path.Combine(SqlWaitProbe.TestSupport.TestData.TempFolder(), "b");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), [.. args, .. args[0] == "capture" ? new[] { "-o", dir } : []]);
        Assert.True(exit == 2, $"exit {exit}: {stderr}");
        var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(lines.Length == 1, stderr);
        Assert.Contains(expected, stderr);
        Assert.DoesNotContain("unexpected", stderr);
        Assert.DoesNotContain("   at ", stderr);
        Assert.DoesNotContain("generate_series", stdout);
        Assert.False(Directory.Exists(dir));
    }

    [Fact]
    public async Task Dry_run_prints_the_sql_and_collectors_and_starts_nothing()
    {
        var dir = Path.Combine(SqlWaitProbe.TestSupport.TestData.TempFolder(), "b");
        var (exit, stdout, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "capture", "--workload", "hashbytes", "--threads", "1,4", "--dry-run", "-o", dir);
        Assert.Equal(0, exit);
        Assert.Contains("SELECT sum(get_byte(digest(id, 'sha256'), 0)) FROM hb_demo;", stdout);
        Assert.Contains("phases: baseline (1 session(s)), 1 (1 session(s)), 4 (4 session(s))", stdout);
        // auto: dwarf when its data for a 30 s phase on this machine's CPUs fits within 80% of the 1024 MB cap.
        var callGraph = SqlWaitProbe.Linux.PerfRecord.PerfCallGraph.Choose(null, 30, Environment.ProcessorCount, 499, 1024)!;
        Assert.Contains($"perf record -a -e cpu-clock {string.Join(' ', SqlWaitProbe.Linux.PerfRecord.PerfCallGraph.RecordArguments(callGraph.Mode))} -F 499", stdout);
        Assert.Contains($"; call graph: {callGraph.Mode} ({callGraph.Reason})", stdout);
        Assert.False(Directory.Exists(dir));
    }

    [Fact]
    public async Task Dry_run_with_iterations_walks_stacks_with_dwarf_bounded_by_the_cap_and_says_why()
    {
        var dir = Path.Combine(SqlWaitProbe.TestSupport.TestData.TempFolder(), "b");
        var (exit, stdout, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "capture", "--workload", "hashbytes", "--iterations", "100", "--dry-run", "-o", dir);
        Assert.Equal(0, exit);
        Assert.Contains("perf record -a -e cpu-clock --call-graph dwarf,8192 -F 499", stdout);
        Assert.Contains("; call graph: dwarf (auto: the phase length is not known before it runs (the first phase of --iterations); DWARF, bounded by the 1024 MB cap", stdout);
        Assert.Contains("each later phase is decided from the one before it", stdout);
        Assert.False(Directory.Exists(dir));
    }

    [Fact]
    public async Task Unreachable_server_is_exit_1_with_one_line()
    {
        var dir = Path.Combine(SqlWaitProbe.TestSupport.TestData.TempFolder(), "b");
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), "capture", "--workload", "noop", "--server", "Host=127.0.0.1;Port=1;Username=x", "-o", dir);
        Assert.Equal(1, exit);
        Assert.Contains("cannot connect", stderr);
        Assert.DoesNotContain("   at ", stderr);
        Assert.Equal("failed", Core.Bundle.CaptureBundle.ReadManifest(Path.Combine(dir, "manifest.json")).Status);
    }
}
