using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Modules;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>
/// The single-capture report shows the server tables the field reports read: a SQL Server capture (a stand-in: files
/// shaped as the DMV and XE writers write them, since this machine has no SQL Server) with latches, spinlocks, memory
/// clerks on two nodes and the pages stream's clerk histogram.
/// </summary>
public sealed class ServerTablesReportTests
{
    [Fact]
    public async Task Latches_spinlocks_clerks_per_node_and_the_clerk_histogram_are_in_the_report()
    {
        var root = new CraftedBundle().Phase("load", 4, 50, 20)
            .Wait("load", "RESERVED_MEMORY_ALLOCATION_EXT", 9000, signalMs: 30, scope: "server", waitingTasks: 1200)
            .Wait("load", "SOS_SCHEDULER_YIELD", 400, signalMs: 400, scope: "server", waitingTasks: 8000)
            .Wait("load", "SLEEP_TASK", 60000, scope: "server", waitingTasks: 50)
            .Wait("load", "RESERVED_MEMORY_ALLOCATION_EXT", 3000, signalMs: 10, waitingTasks: 400)
            .Latch("load", "ACCESS_METHODS_DATASET_PARENT", 400, 1000).Latch("load", "BUFFER", 10, 5)
            .Spinlock("load", "SOS_CACHESTORE", 500000, backoffs: 40)
            .MemoryClerk("load", "MEMORYCLERK_SQLQERESERVATIONS", "Default", 0, 1000, 90000)
            .MemoryClerk("load", "MEMORYCLERK_SQLQERESERVATIONS", "Default", 1, 1000, 2000)
            .ClerkHistogram("load", "MEMORYCLERK_SQLQERESERVATIONS", 750).ClerkHistogram("load", "MEMORYCLERK_SQLGENERAL", 250)
            .Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);
        var report = File.ReadAllText(Path.Combine(output, "report.md"));

        // Each table comes from its module's own report section: the DMV module's tables, the XE module's histogram.
        Assert.Contains("## Server tables in load", report);
        Assert.Contains("## XE pages stream by memory clerk in load", report);

        // The seeds' reading: the same waits growing longer each. 9000 ms over 1200 waits is 7.5 ms a wait; idle waits are left out.
        Assert.Contains("| RESERVED_MEMORY_ALLOCATION_EXT | 1200 | 9000 | 7.5 | 30 |", report);
        Assert.Contains("| SOS_SCHEDULER_YIELD | 8000 | 400 | 0.05 | 400 |", report);
        Assert.Contains("| RESERVED_MEMORY_ALLOCATION_EXT | 400 | 3000 | 7.5 | 10 |", report);
        Assert.DoesNotContain("| SLEEP_TASK |", report);
        Assert.True(report.IndexOf("wait type (session)", StringComparison.Ordinal) < report.IndexOf("wait type (server)", StringComparison.Ordinal));

        // 1000 ms over 400 waiting requests: 2.5 ms a wait.
        Assert.Contains("| ACCESS_METHODS_DATASET_PARENT | 400 | 1000 | 2.5 |", report);
        Assert.Contains("| SOS_CACHESTORE | 5000 | 500000 | 100 | 40 |", report);
        Assert.Contains("| MEMORYCLERK_SQLQERESERVATIONS | Default | 0 | 1000 | 90000 | +89000 |", report);
        Assert.Contains("| MEMORYCLERK_SQLQERESERVATIONS | Default | 1 | 1000 | 2000 | +1000 |", report);
        Assert.Contains("| MEMORYCLERK_SQLQERESERVATIONS | 750 | 75% |", report);

        // The histogram target counts page_freed events per clerk, not pages, and the table says so.
        Assert.Contains("events by memory clerk", report);
        Assert.Contains("| memory clerk | events | share |", report);
        Assert.True(report.IndexOf("| ACCESS_METHODS_DATASET_PARENT", StringComparison.Ordinal) < report.IndexOf("| BUFFER |", StringComparison.Ordinal));
    }
}
