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
    public async Task Bad_input_is_one_line_and_exit_code_2(string expected, params string[] args)
    {
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), args);
        Assert.Equal(2, exit);
        var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.InRange(lines.Length, 1, 3);
        Assert.Contains(expected, stderr);
        Assert.DoesNotContain("   at ", stderr);
    }

    [Fact]
    public async Task Dry_run_prints_the_sql_and_collectors_and_starts_nothing()
    {
        var dir = Path.Combine(SqlWaitProbe.TestSupport.TestData.TempFolder(), "b");
        var (exit, stdout, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "capture", "--workload", "hashbytes", "--threads", "1,4", "--dry-run", "-o", dir);
        Assert.Equal(0, exit);
        Assert.Contains("SELECT sum(get_byte(digest(id, 'sha256'), 0)) FROM hb_demo;", stdout);
        Assert.Contains("phases: baseline (1 session(s)), 1 (1 session(s)), 4 (4 session(s))", stdout);
        Assert.Contains("perf record -a -e cpu-clock --call-graph fp -F 499", stdout);
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
