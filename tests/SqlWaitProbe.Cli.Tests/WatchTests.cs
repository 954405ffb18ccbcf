using System.Diagnostics;
using System.Runtime.InteropServices;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe watch</c> on a real PostgreSQL of its own: a lock convoy starting at a moment the test draws at random
/// fires <c>wait:Lock&gt;30%</c> and becomes an ordinary bundle holding <c>--keep</c> before the trigger; a dump asked
/// from another shell, a second watch on the same folder, Ctrl+C and a server restart.
/// </summary>
[Collection(TimingCollection.Name)]
public sealed class WatchTests : IClassFixture<WatchServerFixture>
{
    private static readonly TimeSpan Keep = TimeSpan.FromSeconds(10);
    private readonly WatchServerFixture _pg;

    public WatchTests(WatchServerFixture pg) => _pg = pg;

    [Fact]
    public async Task A_lock_convoy_at_a_random_moment_fires_wait_Lock_and_the_dump_holds_keep_before_the_trigger_and_the_convoy_start()
    {
        var application = "convoy-" + Guid.NewGuid().ToString("N")[..6];
        var dir = Path.Combine(TestData.TempFolder(), "watch");
        using var probe = ProbeProcess.Start("watch", "--engine", "postgres", "--server", _pg.ConnectionString, "--application", application,
            "--keep", "10s", "--after", "3s", "--trigger", "wait:Lock>30%", "--max-dumps", "1", "-o", dir);
        await WaitForLogAsync(dir, "window 1 started");

        // Any moment after the first window has held --keep, up to 8 s later: the watch cannot know when.
        var delay = Keep + TimeSpan.FromSeconds(2 + Random.Shared.NextDouble() * 8);
        await Task.Delay(delay);
        var (convoyStart, convoy) = await _pg.StartConvoyAsync(application, 3, TimeSpan.FromSeconds(8));
        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(120));
        await convoy;
        Assert.True(exit == 0, $"exit {exit}\n{stderr}");
        Assert.Contains("wait:Lock>30% fired", stderr);
        Assert.Contains("the --max-dumps limit", stderr);
        Assert.DoesNotContain("   at ", stderr);

        var dump = Assert.Single(Directory.GetDirectories(dir, "dump-*"));
        Assert.Contains($"dump: {dump} (complete)", stdout);
        using var bundle = CaptureBundle.Open(dump);
        var m = bundle.Manifest;
        Assert.Equal(BundleStatus.Complete, m.Status);
        Assert.Equal("attach", m.Workload);
        var trigger = Assert.IsType<BundleTrigger>(m.Trigger);
        Assert.Equal(("wait:Lock>30%", "wait", 30.0, "%"), (trigger.Trigger, trigger.Kind, trigger.Threshold, trigger.Unit));
        Assert.True(trigger.Value > 30, $"value {trigger.Value}");
        Assert.Equal(DateTimeKind.Utc, trigger.FiredUtc.Kind);
        var phase = Assert.Single(m.Phases);
        Assert.True(phase.StartUtc <= trigger.FiredUtc - Keep, $"span starts {phase.StartUtc:O}, trigger {trigger.FiredUtc:O}");
        Assert.InRange(convoyStart, phase.StartUtc, phase.EndUtc);
        Assert.True(phase.EndUtc >= trigger.FiredUtc + TimeSpan.FromSeconds(3), $"span ends {phase.EndUtc:O}, trigger {trigger.FiredUtc:O}");
        Assert.True(trigger.FiredUtc - convoyStart < TimeSpan.FromSeconds(5), $"fired {(trigger.FiredUtc - convoyStart).TotalSeconds} s after the convoy began");
        Assert.Empty(bundle.VerifyFiles());

        var report = File.ReadAllText(Path.Combine(dump, "report", "report.md"));
        Assert.Contains("Lock:", report);
        Assert.Matches(@"In attach, Lock:\w+ is \d+% of the wait time", report);
        Assert.Contains("## Watch trigger", report);
        Assert.Contains($"`wait:Lock>30%` fired at {trigger.FiredUtc:yyyy-MM-ddTHH:mm:ss}Z (UTC): {trigger.Value.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture)}% against its threshold of 30%", report);
        Assert.Matches(@"The dump keeps \d+(\.\d)? s before it \(--keep 10 s\) and \d+(\.\d)? s after it \(--after 3 s\)", report);
        var sampling = Assert.Contains(Core.Collectors.RingWindow.ManifestOption, (IDictionary<string, string>)m.Options.ToDictionary());
        Assert.Contains("every 200 ms with the triggers' poll while every watched session is idle", sampling);

        // CPU stacks cut from the watch's one perf, over the dump's span: from --keep before the trigger to its end.
        var perf = Assert.Single(m.Collectors, c => c.Name == "perf");
        Assert.True(perf.Status == CollectorStatus.Ok, $"perf: {perf.Status} {perf.Error}");
        var cpu = Path.Combine(dump, "phases", phase.Name, "cpu");
        Assert.True(new FileInfo(Path.Combine(cpu, "perf.script.gz")).Length > 0, "perf.script.gz is empty");
        Assert.Contains(File.ReadLines(Path.Combine(cpu, "stacks.folded")), l => l.Length > 0);
        var seconds = File.ReadLines(Path.Combine(cpu, "timeline.csv")).Skip(1).Select(l => long.Parse(l.Split(',')[0], System.Globalization.CultureInfo.InvariantCulture)).ToList();
        var span = (phase.EndUtc - phase.StartUtc).TotalSeconds;
        Assert.InRange(seconds.Max() - seconds.Min(), Keep.TotalSeconds, span + 1);

        // Nothing of the watch is left: no ring, no lock, no perf of its windows.
        Assert.False(Directory.Exists(Path.Combine(dir, ".ring")));
        Assert.False(File.Exists(Path.Combine(dir, ".watch.lock")));
        Assert.DoesNotContain(Process.GetProcessesByName("perf"), p => ParentIs(p, probe.Id));
    }

    [Fact]
    public async Task A_second_watch_on_the_folder_is_refused_a_dump_asked_from_another_shell_is_written_and_ctrl_c_ends_with_130()
    {
        var application = "idle-" + Guid.NewGuid().ToString("N")[..6];
        var dir = Path.Combine(TestData.TempFolder(), "watch");
        using var probe = ProbeProcess.Start("watch", "--engine", "postgres", "--server", _pg.ConnectionString, "--application", application,
            "--keep", "5s", "--after", "1s", "-o", dir);
        await WaitForLogAsync(dir, "window 1 started");

        var (second, _, secondErr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), "watch", "--engine", "postgres", "--server", _pg.ConnectionString, "--trigger", "cpu>90%", "-o", dir);
        Assert.True(second == 2, secondErr);
        Assert.Contains("another probe watch is writing into", secondErr);
        Assert.Single(secondErr.Split('\n', StringSplitOptions.RemoveEmptyEntries));

        await Task.Delay(TimeSpan.FromSeconds(2));
        var (asked, askedOut, askedErr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), "watch", "--dump", dir);
        Assert.True(asked == 0, askedErr);
        Assert.Contains("asked the watch", askedOut);
        var waited = Stopwatch.StartNew();
        while (Directory.GetDirectories(dir, "dump-*").Length == 0 || !File.Exists(Path.Combine(Directory.GetDirectories(dir, "dump-*")[0], "report", "report.md")))
        {
            Assert.True(waited.Elapsed < TimeSpan.FromSeconds(60), "no dump was written\n" + File.ReadAllText(Path.Combine(dir, "probe.log")));
            await Task.Delay(200);
        }

        Assert.Equal(0, Kill(probe.Id, 2));
        var sent = Stopwatch.StartNew();
        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(exit == 130, $"exit {exit}\n{stderr}");
        Assert.True(sent.Elapsed < TimeSpan.FromSeconds(20), $"{sent.Elapsed.TotalSeconds} s to stop");
        Assert.DoesNotContain("forced exit", stderr);
        Assert.DoesNotContain("   at ", stderr);
        Assert.Contains("no --trigger: dumps only when asked", stderr);
        Assert.Contains("watch ended (ctrl-c): 1 dump written", stderr);

        var dump = Assert.Single(Directory.GetDirectories(dir, "dump-*"));
        Assert.Contains($"dump: {dump} (complete) — a dump was asked for from another shell", stdout);
        var m = CaptureBundle.ReadManifest(Path.Combine(dump, "manifest.json"));
        Assert.Equal(("manual", "manual"), (m.Trigger?.Trigger, m.Trigger?.Kind));
        Assert.Equal(BundleStatus.Complete, m.Status);
        Assert.False(Directory.Exists(Path.Combine(dir, ".ring")));
        Assert.False(File.Exists(Path.Combine(dir, ".watch.lock")));

        var (none, _, noneErr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), "watch", "--dump", dir);
        Assert.True(none == 2, noneErr);
        Assert.Contains("no probe watch is running on", noneErr);
    }

    [Fact]
    public async Task A_watch_without_a_server_is_one_line_naming_server_and_its_help_offers_no_workload_option()
    {
        var dir = Path.Combine(TestData.TempFolder(), "watch");
        var (exit, _, stderr) = await InProcessProbe.RunAsync("watch", "--trigger", "wait:Lock>30%", "-o", dir);
        Assert.True(exit == 2, stderr);
        Assert.Contains("probe watch needs --server", Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
        Assert.False(Directory.Exists(dir));

        var (_, help, _) = await InProcessProbe.RunAsync("watch", "--help");
        Assert.Contains("--trigger", help);
        Assert.DoesNotContain("--proc", help);
        Assert.DoesNotContain("--reset-server-state", help);
    }

    [Theory]
    [InlineData("wait:Lock>30", "a share is a percentage")]
    [InlineData("wait:Lokc:tuple>30%", "'Lokc' is not a PostgreSQL wait class")]
    [InlineData("cpu>150%", "above 0 and below 100")]
    [InlineData("iops>3", "'iops' is not something a watch measures")]
    [InlineData("latency>fast", "is not a trigger")]
    [InlineData("blocked>5%", "takes a time")]
    public async Task A_bad_trigger_is_one_line_and_exit_2_before_anything_starts(string trigger, string message)
    {
        var dir = Path.Combine(TestData.TempFolder(), "watch");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), "watch", "--engine", "postgres", "--server", _pg.ConnectionString, "--trigger", trigger, "-o", dir);
        Assert.True(exit == 2, stderr);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("probe: ", line);
        Assert.Contains(message, line);
        Assert.Empty(stdout);
        Assert.False(Directory.Exists(dir));
    }

    [Fact]
    public async Task A_server_restart_is_survived_said_in_the_log_and_the_watch_goes_on()
    {
        var dir = Path.Combine(TestData.TempFolder(), "watch");
        using var probe = ProbeProcess.Start("watch", "--engine", "postgres", "--server", _pg.ConnectionString, "--application", "nobody",
            "--keep", "5s", "--after", "1s", "--trigger", "latency>60s", "-o", dir);
        await WaitForLogAsync(dir, "window 1 started");
        try
        {
            await _pg.RestartAsync();
            await WaitForLogAsync(dir, "reconnected to the server");
            await WaitForLogAsync(dir, "window 2 started");
        }
        finally
        {
            Kill(probe.Id, 15);
        }

        var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(exit == 130, $"exit {exit}\n{stderr}");
        Assert.Contains("lost the server", stderr);
        Assert.Contains("reconnected to the server after", stderr);
        Assert.True(stderr.Contains("watch ended (sigterm)", StringComparison.Ordinal), stderr);
        Assert.Empty(Directory.GetDirectories(dir, "dump-*"));
    }

    [Fact]
    public async Task A_quiet_watch_over_many_windows_stays_within_its_disk_budget_deletes_each_window_as_it_ages_out_and_leaves_nothing_in_temp()
    {
        const int budgetMegabytes = 16;
        var dir = Path.Combine(TestData.TempFolder(), "watch");
        // A temp folder of the watch's own: perf's data and the run folders live under it while the watch runs.
        var temp = TestData.TempFolder("probe-watch-temp");
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(temp, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        using var probe = ProbeProcess.Start(new Dictionary<string, string> { ["TMPDIR"] = temp }, "watch", "--engine", "postgres", "--server", _pg.ConnectionString,
            "--application", "quiet", "--keep", "5s", "--after", "1s", "--trigger", "latency>60s", "--disk-budget-mb", budgetMegabytes.ToString(System.Globalization.CultureInfo.InvariantCulture), "-o", dir);
        var ring = Path.Combine(dir, ".ring");
        var seen = new SortedSet<int>();
        var mostAtOnce = 0;
        long largest = 0;
        var segmentsAtOnce = 0;
        var perfs = new HashSet<int>();
        var waited = Stopwatch.StartNew();
        try
        {
            // Seven windows: each of the first five must have aged out (been deleted) by the time the seventh runs.
            while (!seen.Contains(7))
            {
                Assert.True(waited.Elapsed < TimeSpan.FromSeconds(150), $"windows seen: {string.Join(", ", seen)}\n{(File.Exists(Path.Combine(dir, "probe.log")) ? ReadShared(Path.Combine(dir, "probe.log")) : "(no log)")}");
                var windows = Directory.Exists(ring) ? Directory.GetDirectories(ring, "w-*") : [];
                foreach (var w in windows)
                {
                    seen.Add(int.Parse(Path.GetFileName(w)[2..], System.Globalization.CultureInfo.InvariantCulture));
                }

                mostAtOnce = Math.Max(mostAtOnce, windows.Length);
                largest = Math.Max(largest, FolderBytes(dir));
                segmentsAtOnce = Math.Max(segmentsAtOnce, Directory.EnumerateFiles(temp, "perf-ring-*.data.*", SearchOption.AllDirectories).Count());
                perfs.UnionWith(Process.GetProcessesByName("perf").Where(p => ParentIs(p, probe.Id) && Recording(p)).Select(p => p.Id));
                await Task.Delay(250);
            }

            var left = Directory.GetDirectories(ring, "w-*").Select(w => int.Parse(Path.GetFileName(w)[2..], System.Globalization.CultureInfo.InvariantCulture)).ToList();
            Assert.True(left.All(n => n >= 5), $"windows still in the ring when the seventh runs: {string.Join(", ", left)}");
        }
        finally
        {
            Kill(probe.Id, 15);
        }

        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(exit == 130, $"exit {exit}\n{stderr}");
        Assert.DoesNotContain("   at ", stderr);
        Assert.Contains("watch ended (sigterm): 0 dumps written", stderr);
        Assert.DoesNotContain("dump:", stdout);
        Assert.InRange(mostAtOnce, 1, 3);
        Assert.True(largest < budgetMegabytes * 1024L * 1024, $"the output folder held {largest / 1024.0 / 1024:0.0} MB, over the {budgetMegabytes} MB budget");

        // One perf for every window, its closed segments (in the temp folder, outside the budget) deleted as the windows
        // that reach them age out.
        Assert.True(perfs.Count == 1, $"perf processes of the watch: {string.Join(", ", perfs)}");
        Assert.InRange(segmentsAtOnce, 0, 4);

        // Only the log is left of a watch that dumped nothing, and nothing at all in its temp folder.
        Assert.Equal(["probe.log"], Directory.EnumerateFileSystemEntries(dir).Select(e => Path.GetFileName(e)).ToArray());
        var leftInTemp = Directory.EnumerateFiles(temp, "*", SearchOption.AllDirectories).ToList();
        Assert.True(leftInTemp.Count == 0, "left in temp: " + string.Join(", ", leftInTemp));
        Directory.Delete(temp, recursive: true);
    }

    private static long FolderBytes(string folder)
    {
        try
        {
            return new DirectoryInfo(folder).EnumerateFiles("*", new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true }).Sum(f =>
            {
                try
                {
                    return f.Length;
                }
                catch (FileNotFoundException)
                {
                    return 0;
                }
            });
        }
        catch (Exception e) when (e is DirectoryNotFoundException or FileNotFoundException)
        {
            // A window deleted while it was being listed.
            return 0;
        }
    }

    private static async Task WaitForLogAsync(string dir, string text)
    {
        var log = Path.Combine(dir, "probe.log");
        var waited = Stopwatch.StartNew();
        while (!(File.Exists(log) && ReadShared(log).Contains(text, StringComparison.Ordinal)))
        {
            Assert.True(waited.Elapsed < TimeSpan.FromSeconds(60), $"the watch's log never said '{text}'\n{(File.Exists(log) ? ReadShared(log) : "(no log)")}");
            await Task.Delay(100);
        }
    }

    private static string ReadShared(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }

    // perf record, not the short perf --version a window's start runs.
    private static bool Recording(Process p)
    {
        try
        {
            return File.ReadAllText($"/proc/{p.Id}/cmdline").Split('\0').Contains("record");
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static bool ParentIs(Process p, int parent)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{p.Id}/stat");
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return int.Parse(fields[1], System.Globalization.CultureInfo.InvariantCulture) == parent;
        }
        catch (IOException)
        {
            return false;
        }
    }

    [DllImport("libc", EntryPoint = "kill")]
    private static extern int Kill(int pid, int signal);
}
