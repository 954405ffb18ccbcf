using System.Text.Json;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A capture killed during a phase with <c>--xe pages</c> leaves its XE session and event files on the server; its run
/// record names both. <c>probe cleanup</c> without <c>--server</c> (no SQL Server runs here) says so in the dry run and
/// keeps the record, event-file names included, for a cleanup that names the server.
/// </summary>
public sealed class XeCleanupDryRunTests
{
    [Fact]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public async Task The_dry_run_names_the_event_files_of_a_killed_capture_and_the_cleanup_keeps_them_for_the_server()
    {
        const UnixFileMode Private = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
        var runtime = Path.Combine(TestData.TempFolder("probe-xe-cleanup"), "runtime");
        Directory.CreateDirectory(runtime, Private);
        var dead = Path.Combine(runtime, "capture-k7q2m9x4");
        Directory.CreateDirectory(dead, Private);
        TrustedJson.Write(Path.Combine(dead, RunMarker.FileName), new RunMarker
        {
            RunId = "k7q2m9x4",
            Kind = "capture",
            Owner = ProcessIdentity.Current with { Pid = 3_999_997 },
            CreatedUtc = DateTime.UtcNow,
        });
        var record = Path.Combine(dead, RunFolder.ResourcePrefix + "xe-pages.json");
        TrustedJson.Write(record, new RunResource
        {
            Name = "xe-pages",
            Description = "XE session probe_k7q2m9x4_pages",
            XeSession = "probe_k7q2m9x4_pages",
            XeEventFiles = ["probe_k7q2m9x4_load_pages"],
        });
        var env = new Dictionary<string, string> { [RuntimeFolder.OverrideVariable] = runtime };

        using (var dry = ProbeProcess.Start(env, "cleanup", "--dry-run", "--format", "json"))
        {
            var (exit, stdout, stderr) = await dry.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.True(exit == 0, stderr);
            using var json = JsonDocument.Parse(stdout);
            var leftover = json.RootElement.GetProperty("leftovers").EnumerateArray().Single();
            var actions = leftover.GetProperty("actions").EnumerateArray().Select(a => a.GetString()).ToList();
            Assert.Contains("keep the record of XE session probe_k7q2m9x4_pages and its event files (remove them with 'probe cleanup --server')", actions);
        }

        using var real = ProbeProcess.Start(env, "cleanup");
        var (cleanExit, cleanOut, cleanErr) = await real.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(cleanExit == 0, cleanErr);
        Assert.Contains("kept the record of its XE session(s)", cleanOut, StringComparison.Ordinal);
        Assert.Equal(["probe_k7q2m9x4_load_pages"], TrustedJson.Read<RunResource>(record)!.XeEventFiles);
    }
}
