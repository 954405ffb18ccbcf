using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>A Windows capture's raw ETW trace stays in the bundle and goes into a pack only on request.</summary>
public sealed class PackEtwTraceTests
{
    private const string Trace = "phases/load/cpu/trace.etl";

    [Fact]
    public async Task A_pack_leaves_the_raw_trace_out_and_still_verifies()
    {
        var root = AnalyzeCommandTests.Scenario().Raw(Trace, new string('t', 200_000)).Write();
        var zip = Path.Combine(Path.GetDirectoryName(root)!, "ticket.zip");

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("pack", root, "-o", zip);

        Assert.True(exit == 0, stderr);
        Assert.Contains("left out 1 raw ETW trace(s) (0.2 MB; the stack files made from them are packed); add --with-trace to pack them", stdout);
        using (var archive = ZipFile.OpenRead(zip))
        {
            Assert.DoesNotContain(archive.Entries, e => e.FullName == Trace);
        }

        using var reopened = CaptureBundle.Open(zip);
        Assert.Empty(reopened.VerifyFiles());
        Assert.DoesNotContain(reopened.Manifest.Files, f => f.Path == Trace);
        Assert.True(File.Exists(Path.Combine(root, Trace)), "the bundle keeps its trace");
    }

    [Fact]
    public async Task With_trace_packs_it()
    {
        var root = AnalyzeCommandTests.Scenario().Raw(Trace, "etl bytes").Write();
        var zip = Path.Combine(Path.GetDirectoryName(root)!, "full.zip");

        var (exit, _, stderr) = await InProcessProbe.RunAsync("pack", root, "-o", zip, "--with-trace");

        Assert.True(exit == 0, stderr);
        using var reopened = CaptureBundle.Open(zip);
        Assert.Empty(reopened.VerifyFiles());
        Assert.Contains(reopened.Manifest.Files, f => f.Path == Trace);
    }

    [Fact]
    public async Task With_trace_and_redact_together_are_refused_before_anything_is_written()
    {
        var root = AnalyzeCommandTests.Scenario().Raw(Trace, "etl bytes").Write();
        var zip = Path.Combine(Path.GetDirectoryName(root)!, "r.zip");

        var (exit, _, stderr) = await InProcessProbe.RunAsync("pack", root, "-o", zip, "--with-trace", "--redact");

        Assert.Equal(2, exit);
        Assert.Contains("--with-trace cannot go with --redact", stderr);
        Assert.False(File.Exists(zip));
        Assert.False(Directory.Exists(Path.Combine(root, BundlePaths.ReportFolder)));
    }
}
