using System.Diagnostics;
using System.Runtime.InteropServices;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe capture --engine postgres --attach</c> against a real server while two sessions of someone else's
/// work hash with pgcrypto: what the bundle and report show, that the probe changed nothing, and Ctrl+C.
/// </summary>
[Collection(TimingCollection.Name)]
public sealed class PostgresAttachTests : IClassFixture<AttachLoadFixture>
{
    private readonly AttachLoadFixture _load;

    public PostgresAttachTests(AttachLoadFixture load) => _load = load;

    [Fact]
    public async Task Attach_watches_the_two_load_sessions_and_creates_nothing_on_the_server()
    {
        var before = await _load.SchemaAsync();
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2),
            "capture", "--engine", "postgres", "--server", _load.ConnectionString, "--attach", "--duration", "4s", "--application", _load.Application, "-o", dir);
        Assert.True(exit == 0, stderr);
        Assert.Contains(" s of 4 s, 2 session(s)", stderr);
        Assert.Contains("waits from pg_stat_activity sampling", stderr);

        using var bundle = CaptureBundle.Open(dir);
        var m = bundle.Manifest;
        Assert.Equal(BundleStatus.Complete, m.Status);
        Assert.Equal("attach", m.Workload);
        var phase = Assert.Single(m.Phases);
        Assert.Equal(("attach", 0, 0L), (phase.Name, phase.Threads, phase.Executions));
        Assert.InRange((phase.EndUtc - phase.StartUtc).TotalSeconds, 3.5, 6);
        Assert.All(m.Collectors.Where(c => c.Name is not ("offcpu" or "pg-statements" or "pg-auto-explain")), c => Assert.True(c.Status == CollectorStatus.Ok, $"{c.Name}: {c.Status} {c.Error}"));

        // The test server does not load auto_explain, and attach never changes a server setting: no plans, and the
        // skip says how to have them.
        var plans = m.Collectors.Single(c => c.Name == "pg-auto-explain");
        Assert.Equal(CollectorStatus.Skipped, plans.Status);
        Assert.Contains("auto_explain is not loaded", plans.Error, StringComparison.Ordinal);
        Assert.Contains("--explain", plans.Error, StringComparison.Ordinal);

        // The server preloads pg_stat_statements but the load's database has no extension of its own, and attach creates
        // nothing: statements come from the samples, and the skip says what gives their counters.
        var statements = m.Collectors.Single(c => c.Name == "pg-statements");
        Assert.Equal(CollectorStatus.Skipped, statements.Status);
        Assert.Contains("pg_stat_statements is loaded but not created in the database the probe connects to", statements.Error, StringComparison.Ordinal);
        Assert.Contains("CREATE EXTENSION pg_stat_statements;", statements.Error, StringComparison.Ordinal);
        Assert.False(bundle.Has(BundlePaths.Executions("attach")));
        Assert.False(bundle.Has(BundlePaths.WorkloadSql));
        Assert.Empty(bundle.VerifyFiles());

        using (var sessions = bundle.OpenText(BundlePaths.Sessions("attach"))!)
        {
            var rows = Csv.ReadRows(sessions).ToArray();
            Assert.Equal(_load.LoadPids.Order(), rows.Select(r => int.Parse(r["backend_pid"], System.Globalization.CultureInfo.InvariantCulture)).Order());
            Assert.All(rows, r => Assert.True(Csv.ParseDouble(r["cpu_ms"]) > 500, $"cpu_ms {r["cpu_ms"]}"));
        }

        // The workload is exactly the watched backends, each with its start time; the server's other processes are not.
        using (var processes = bundle.OpenText(BundlePaths.Processes("attach"))!)
        {
            var rows = Csv.ReadRows(processes).ToArray();
            Assert.Equal(_load.LoadPids.Order(), rows.Select(r => int.Parse(r["pid"], System.Globalization.CultureInfo.InvariantCulture)).Order());
            Assert.All(rows, r => Assert.Equal(SqlWaitProbe.Core.Runtime.ProcessIdentity.Read(int.Parse(r["pid"], System.Globalization.CultureInfo.InvariantCulture))?.StartTicks.ToString(System.Globalization.CultureInfo.InvariantCulture), r["start_ticks"]));
        }

        var profile = new StackProfile();
        using (var folded = bundle.OpenText(BundlePaths.Stacks("attach"))!)
        {
            FoldedStackFormat.ReadInto(folded, "stacks.folded", profile, firstFrameIsProcess: true);
        }

        Assert.Equal("libcrypto.so.3", ModuleShares.Compute(profile, "postgres").OrderByDescending(s => s.ExclusiveWeight).First().Module);

        var report = File.ReadAllText(Path.Combine(dir, "report", "report.md"));
        Assert.Contains("### attach — attached to 2 session(s)", report);
        Assert.Contains("| libcrypto.so.3 |", report);
        Assert.Contains("| SELECT sum(get_byte(digest(b \\|\\| g::text::bytea, 'sha256'), 0)) FROM attach_blob… | ", report);
        Assert.DoesNotContain("## Scalability", report);
        Assert.True(File.Exists(Path.Combine(dir, "report", "report.html")));

        Assert.Equal(before, await _load.SchemaAsync());
    }

    [Theory]
    [InlineData("--application", "nobody-runs-this")]
    [InlineData("--session-ids", "999999")]
    [InlineData("--login", "nosuchrole")]
    public async Task A_filter_matching_no_session_is_exit_2_before_collecting_naming_the_filter_and_the_sessions_there_are(string option, string value)
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2),
            "capture", "--engine", "postgres", "--server", _load.ConnectionString, "--attach", "--duration", "30s", option, value, "-o", dir);
        Assert.True(exit == 2, stderr);
        Assert.Contains($"{option} {value} matches no client backend", stderr);
        Assert.All(_load.LoadPids, pid => Assert.Contains($"pid {pid} (role postgres, database {AttachLoadFixture.Database}, application {_load.Application})", stderr));
        Assert.DoesNotContain("   at ", stderr);
        Assert.DoesNotContain("attached:", stderr);

        var manifest = CaptureBundle.ReadManifest(Path.Combine(dir, "manifest.json"));
        Assert.Equal(BundleStatus.Failed, manifest.Status);
        Assert.Empty(manifest.Phases);
    }

    [Fact]
    public async Task Ctrl_c_ends_the_attach_window_with_130_and_an_interrupted_bundle_that_analyses()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        using var probe = ProbeProcess.Start("capture", "--engine", "postgres", "--server", _load.ConnectionString, "--attach", "--duration", "60s", "--application", _load.Application, "-o", dir);
        var log = Path.Combine(dir, "capture.log");
        var waited = Stopwatch.StartNew();
        while (!(File.Exists(log) && File.ReadAllText(log).Contains("watching backend", StringComparison.Ordinal)))
        {
            Assert.True(waited.Elapsed < TimeSpan.FromSeconds(30), "the attach window never opened");
            await Task.Delay(100);
        }

        await Task.Delay(1000);
        Assert.Equal(0, Kill(probe.Id, 2));
        var sent = Stopwatch.StartNew();
        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(20));
        Assert.True(exit == 130, stderr);
        Assert.True(sent.Elapsed < TimeSpan.FromSeconds(10), $"{sent.Elapsed.TotalSeconds} s\n{stderr}\n{File.ReadAllText(log)}");
        Assert.DoesNotContain("   at ", stderr);

        var manifest = CaptureBundle.ReadManifest(Path.Combine(dir, "manifest.json"));
        Assert.Equal(BundleStatus.Interrupted, manifest.Status);
        Assert.Equal("ctrl-c", manifest.Reason);
        Assert.Equal("attach", Assert.Single(manifest.Phases).Name);
        Assert.Empty(Directory.GetFiles(Path.GetTempPath(), "probe-perf-" + manifest.RunId + "*"));
        Assert.Contains("interrupted", stdout);
    }

    [DllImport("libc", EntryPoint = "kill")]
    private static extern int Kill(int pid, int signal);
}
