using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// The report of a capture a signal interrupted is written only in the time the signal leaves before the invocation
/// ends anyway; when there is none left, no half-written report stays behind and the user is told how to make it.
/// </summary>
public sealed class InterruptedReportTests
{
    [Fact]
    public async Task With_no_time_left_after_the_signal_no_report_is_written_and_the_line_names_probe_analyze()
    {
        var root = new CraftedBundle("postgres", "postgres").Phase("load", 2, 5, 3).Status(BundleStatus.Interrupted, "ctrl-c").Write();
        var lines = new List<string>();

        var (folder, findings, _) = await CaptureThenAnalyse.AnalyseAsync(root, BundleStatus.Interrupted, new SyncProgress(lines), CancellationToken.None, TimeSpan.Zero);

        Assert.Null(folder);
        Assert.Empty(findings);
        Assert.False(Directory.Exists(Path.Combine(root, BundlePaths.ReportFolder)));
        Assert.Contains(lines, l => l.Contains("did not fit in the time a signal leaves", StringComparison.Ordinal) && l.EndsWith("run: probe analyze " + root, StringComparison.Ordinal));
    }

    [Fact]
    public async Task With_time_left_the_interrupted_capture_gets_its_whole_report()
    {
        var root = new CraftedBundle("postgres", "postgres").Phase("load", 2, 5, 3).Status(BundleStatus.Interrupted, "ctrl-c").Write();

        var (folder, _, _) = await CaptureThenAnalyse.AnalyseAsync(root, BundleStatus.Interrupted, new SyncProgress([]), CancellationToken.None, TimeSpan.FromMinutes(2));

        Assert.NotNull(folder);
        Assert.True(File.Exists(Path.Combine(folder!, "report.md")));
    }

    private sealed class SyncProgress(List<string> lines) : IProgress<string>
    {
        public void Report(string value)
        {
            lock (lines)
            {
                lines.Add(value);
            }
        }
    }
}
