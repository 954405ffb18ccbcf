using System.Diagnostics;
using System.IO.Compression;
using System.Runtime.InteropServices;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>Interrupted or killed <c>analyze</c> and <c>pack</c> leave no scratch behind, or only what <c>probe cleanup</c> finds.</summary>
public sealed class ScratchCleanupTests
{
    private static readonly Lazy<string> Zip = new(() =>
    {
        var root = CaptureInterruptTests.LargeBundle();
        var zip = Path.Combine(Path.GetDirectoryName(root)!, "large.zip");
        ZipFile.CreateFromDirectory(root, zip, CompressionLevel.Fastest, includeBaseDirectory: false);
        return zip;
    });

    [Theory]
    [InlineData("analyze", 2)]
    [InlineData("analyze", 15)]
    [InlineData("pack", 2)]
    [InlineData("pack", 15)]
    public async Task A_signal_during_analyze_or_pack_of_a_zip_leaves_nothing_behind(string command, int signal)
    {
        var (runtime, env) = PrivateRuntime();
        var outFolder = TestData.TempFolder();
        var output = Path.Combine(outFolder, command == "pack" ? "ticket.zip" : "report");
        using var probe = command == "pack"
            ? ProbeProcess.Start(env, "pack", Zip.Value, "--redact", "-o", output)
            : ProbeProcess.Start(env, "analyze", Zip.Value, "-o", output);
        await WaitForScratch(runtime);
        await Task.Delay(300);

        Assert.Equal(0, Kill(probe.Id, signal));
        var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(exit is 130 or 143, $"exit {exit}: {stderr}");
        Assert.DoesNotContain("   at ", stderr);
        Assert.Empty(Directory.GetFileSystemEntries(runtime));
        Assert.Empty(Directory.GetFiles(outFolder, "*.tmp"));
    }

    [Fact]
    public async Task A_killed_analyze_leaves_a_scratch_run_that_probe_cleanup_names_and_removes()
    {
        var (runtime, env) = PrivateRuntime();
        using var probe = ProbeProcess.Start(env, "analyze", Zip.Value, "-o", Path.Combine(TestData.TempFolder(), "report"));
        var scratch = await WaitForScratch(runtime);
        Assert.Equal(0, Kill(probe.Id, 9));
        await probe.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(Directory.Exists(scratch));

        using (var dry = ProbeProcess.Start(env, "cleanup", "--dry-run"))
        {
            var (exit, stdout, stderr) = await dry.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.True(exit == 0, stderr);
            Assert.Contains($"would clean up analyze run ", stdout + stderr);
            Assert.Contains($"probe pid {probe.Id} ", stdout);
            Assert.Contains("would delete folder " + scratch, stdout);
        }

        using var cleanup = ProbeProcess.Start(env, "cleanup");
        var (cleanExit, cleanOut, cleanErr) = await cleanup.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(cleanExit == 0, cleanErr);
        Assert.Contains("deleted " + scratch, cleanOut);
        Assert.Empty(Directory.GetFileSystemEntries(runtime));
    }

    [Theory]
    [InlineData(2)]
    [InlineData(9)]
    public async Task A_signal_while_a_zip_of_19000_entries_is_extracted_leaves_nothing_or_what_probe_cleanup_removes(int signal)
    {
        var (runtime, env) = PrivateRuntime();
        using var probe = ProbeProcess.Start(env, "analyze", ManyEntries.Value, "-o", Path.Combine(TestData.TempFolder(), "report"));
        var scratch = await WaitForScratch(runtime);
        await WaitForExtraction(Path.Combine(scratch, "bundle", "phases", "load", "many"));

        Assert.Equal(0, Kill(probe.Id, signal));
        var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(30));
        if (signal == 2)
        {
            // Ctrl+C: the extraction stops at its next entry and its run folder goes, marker last.
            Assert.True(exit == 130, $"exit {exit}: {stderr}");
            Assert.DoesNotContain("   at ", stderr);
            Assert.True(Directory.GetFileSystemEntries(runtime).Length == 0, $"left: {string.Join(", ", Directory.GetFileSystemEntries(runtime, "*", SearchOption.AllDirectories).Take(5))}\n{stderr}");
            return;
        }

        // kill -9 leaves the run folder with its owner marker, written before the first entry: probe cleanup finds it.
        Assert.True(File.Exists(Path.Combine(scratch, RunMarker.FileName)));
        using (var dry = ProbeProcess.Start(env, "cleanup", "--dry-run"))
        {
            var (dryExit, stdout, dryErr) = await dry.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.True(dryExit == 0, dryErr);
            Assert.Contains("would delete folder " + scratch, stdout);
        }

        using var cleanup = ProbeProcess.Start(env, "cleanup");
        var (cleanExit, cleanOut, cleanErr) = await cleanup.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(cleanExit == 0, cleanErr);
        Assert.Contains("deleted " + scratch, cleanOut);
        Assert.Empty(Directory.GetFileSystemEntries(runtime));
    }

    // A bundle with 19,000 small files besides its own (under the limit of 20,000 entries): extraction takes seconds.
    private static readonly Lazy<string> ManyEntries = new(() =>
    {
        var folder = TestData.TempFolder("probe-many-entries");
        var zip = Path.Combine(folder, "many.zip");
        ZipFile.CreateFromDirectory(HostileCorpus.Healthy().Write(folder), zip);
        using var archive = ZipFile.Open(zip, ZipArchiveMode.Update);
        var text = new string('x', 100);
        for (var i = 0; i < 19_000; i++)
        {
            using var writer = new StreamWriter(archive.CreateEntry($"phases/load/many/n{i:D5}.txt", CompressionLevel.Fastest).Open());
            writer.Write(text);
        }

        return zip;
    });

    private static async Task WaitForExtraction(string folder)
    {
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < TimeSpan.FromSeconds(60))
        {
            if (Directory.Exists(folder) && Directory.GetFiles(folder).Length >= 50)
            {
                return;
            }

            await Task.Delay(10);
        }

        throw new TimeoutException("the extraction did not start");
    }

    private static (string Runtime, Dictionary<string, string> Env) PrivateRuntime()
    {
        var runtime = Path.Combine(TestData.TempFolder(), "runtime");
        return (runtime, new Dictionary<string, string> { [RuntimeFolder.OverrideVariable] = runtime });
    }

    private static async Task<string> WaitForScratch(string runtime)
    {
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < TimeSpan.FromSeconds(30))
        {
            if (Directory.Exists(runtime) && Directory.GetDirectories(runtime).FirstOrDefault() is { } run && File.Exists(Path.Combine(run, RunMarker.FileName)))
            {
                return run;
            }

            await Task.Delay(20);
        }

        throw new TimeoutException("no scratch run folder appeared");
    }

    [DllImport("libc", EntryPoint = "kill")]
    private static extern int Kill(int pid, int signal);
}
