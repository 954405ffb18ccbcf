using System.Diagnostics;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Nothing destructive unasked: --reset-server-state is refused in attach mode and needs a confirmation (or --yes)
/// otherwise, never hanging without a terminal; the report states what debug-channel XE events cost.
/// </summary>
public sealed class ProductionSafetyTests
{
    private const string Unreachable = "Server=127.0.0.1,1;Connect Timeout=2";

    [Fact]
    public async Task Reset_server_state_without_yes_and_without_a_terminal_is_refused_at_once_and_sends_nothing()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var clock = Stopwatch.StartNew();
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30),
            "capture", "--engine", "sqlserver", "--server", Unreachable, "--workload", "hashbytes", "--duration", "2s", "--reset-server-state", "-o", dir);

        Assert.Equal(2, exit);
        Assert.Contains("--reset-server-state needs --yes when there is no terminal", stderr);
        Assert.Single(stderr.Trim().Split('\n'));
        Assert.DoesNotContain("Cannot reach", stderr);
        Assert.False(Directory.Exists(dir), "refused before any connection or bundle");
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(20));
    }

    [Fact]
    public async Task Reset_server_state_with_yes_goes_on_to_connect()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60),
            "capture", "--engine", "sqlserver", "--server", Unreachable, "--workload", "hashbytes", "--duration", "2s", "--reset-server-state", "--yes", "--no-analyze", "-o", dir);

        Assert.Equal(1, exit);
        Assert.Contains("Cannot reach SQL Server", stderr);
        Assert.DoesNotContain("--reset-server-state", stderr);
    }

    [Theory]
    [InlineData("--dry-run")]
    [InlineData("--yes")]
    public async Task Reset_server_state_in_attach_mode_is_refused_even_with_yes(string extra)
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30),
            "capture", "--engine", "sqlserver", "--server", Unreachable, "--attach", "--duration", "2s", "--reset-server-state", extra, "-o", dir);

        Assert.Equal(2, exit);
        Assert.Contains("refused in attach mode", stderr);
        Assert.False(Directory.Exists(dir));
    }

    [Fact]
    public async Task Report_states_the_measured_cost_of_debug_channel_xe_events()
    {
        var root = new CraftedBundle(workload: "attach")
            .Phase("attach", 4, 20, 10).Sessions("attach", 300).Overhead("attach", 91.5, 100)
            .XePages("attach", 0, "page_allocated", "MEMORYCLERK_SOSNODE", 64)
            .Collector("xe-pages", "ok")
            .Write();

        var (exit, _, stderr) = await InProcessProbe.RunAsync("analyze", root);

        Assert.True(exit == 0, stderr);
        var report = await File.ReadAllTextAsync(Path.Combine(root, "report", "report.md"));
        Assert.Contains("cost of the collectors including the XE sessions (xe-pages, debug-channel events): 8.5% slowdown, 91.5 executions/s instrumented vs 100 without", report);
    }
}
