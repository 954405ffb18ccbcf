using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Core.Tests.Runtime;

/// <summary>
/// Trace sessions (ETW on Windows, XE on a SQL Server) are stopped only when a dead run of this user recorded them.
/// ETW itself cannot run here, so a recording stand-in for the session list plays its part (a named mock).
/// </summary>
public sealed class RuntimeCleanerTests
{
    [Fact]
    public async Task Only_the_trace_and_XE_sessions_a_dead_run_recorded_are_stopped()
    {
        var run = RuntimeFolder.Run("capture", "t" + Guid.NewGuid().ToString("N")[..9]);
        run.Record(new RunResource { Name = "etw-load", Description = "ETW session", TraceSession = "SqlWaitProbe-mine-load" });
        run.Record(new RunResource { Name = "xe-pages", Description = "XE session", XeSession = "probe_mine_pages" });
        KillOwner(run);

        var etw = new RecordingTraceSessions("SqlWaitProbe-mine-load", "SqlWaitProbe-other-load", "NT Kernel Logger");
        var dropped = new List<string>();
        var cleaner = new RuntimeCleaner(etw, (resource, _) =>
        {
            dropped.Add(resource.XeSession!);
            return Task.FromResult("dropped XE session " + resource.XeSession);
        });
        var leftover = Assert.Single(await cleaner.FindAsync(CancellationToken.None), l => l.Id == run.Path);
        Assert.Contains("stop ETW session SqlWaitProbe-mine-load", leftover.Actions);
        Assert.Contains("drop XE session probe_mine_pages on the server", leftover.Actions);
        Assert.Empty(etw.Stopped);

        await cleaner.RemoveAsync(leftover, CancellationToken.None);
        Assert.Equal(["SqlWaitProbe-mine-load"], etw.Stopped);
        Assert.Equal(["probe_mine_pages"], dropped);
        Assert.False(Directory.Exists(run.Path));
    }

    [Fact]
    public async Task Without_a_server_the_record_of_an_XE_session_is_kept_for_later()
    {
        var run = RuntimeFolder.Run("capture", "t" + Guid.NewGuid().ToString("N")[..9]);
        run.Record(new RunResource { Name = "xe-pages", Description = "XE session", XeSession = "probe_kept_pages" });
        run.Record(new RunResource { Name = "etw-load", Description = "ETW session", TraceSession = "SqlWaitProbe-gone" });
        KillOwner(run);
        try
        {
            var cleaner = new RuntimeCleaner(new RecordingTraceSessions());
            var leftover = Assert.Single(await cleaner.FindAsync(CancellationToken.None), l => l.Id == run.Path);
            Assert.Contains("keep the record of XE session probe_kept_pages (drop it with 'probe cleanup --server')", leftover.Actions);

            Assert.Contains("kept the record", await cleaner.RemoveAsync(leftover, CancellationToken.None));
            Assert.Equal(
                [RunMarker.FileName, RunFolder.ResourcePrefix + "xe-pages.json"],
                Directory.GetFiles(run.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal));
        }
        finally
        {
            run.Dispose();
        }
    }

    [Fact]
    public async Task The_event_files_a_dead_run_recorded_are_in_its_plan_and_handed_whole_to_the_server_cleanup()
    {
        var run = RuntimeFolder.Run("capture", "t" + Guid.NewGuid().ToString("N")[..9]);
        run.Record(new RunResource { Name = "xe-pages", Description = "XE session", XeSession = "probe_f1_pages", XeEventFiles = ["probe_f1_load_pages"] });
        KillOwner(run);

        // Without a server the record is kept, and the plan says its files wait for it too.
        var kept = Assert.Single(await new RuntimeCleaner().FindAsync(CancellationToken.None), l => l.Id == run.Path);
        Assert.Contains("keep the record of XE session probe_f1_pages and its event files (remove them with 'probe cleanup --server')", kept.Actions);

        var handed = new List<RunResource>();
        var cleaner = new RuntimeCleaner(null, (resource, _) =>
        {
            handed.Add(resource);
            return Task.FromResult("dropped XE session probe_f1_pages; deleted 2 event file(s)");
        });
        var leftover = Assert.Single(await cleaner.FindAsync(CancellationToken.None), l => l.Id == run.Path);
        Assert.Contains("drop XE session probe_f1_pages on the server and delete its event files probe_f1_load_pages_0_*.xel (only those, when the server runs on this machine)", leftover.Actions);

        var outcome = await cleaner.RemoveAsync(leftover, CancellationToken.None);
        Assert.Contains("deleted 2 event file(s)", outcome);
        Assert.Equal(["probe_f1_load_pages"], Assert.Single(handed).XeEventFiles);
        Assert.False(Directory.Exists(run.Path));
    }

    [Fact]
    public async Task A_run_whose_probe_still_runs_is_not_a_leftover()
    {
        using var run = RuntimeFolder.Run("capture", "t" + Guid.NewGuid().ToString("N")[..9]);
        run.Record(new RunResource { Name = "etw-load", Description = "ETW session", TraceSession = "SqlWaitProbe-live" });
        var etw = new RecordingTraceSessions("SqlWaitProbe-live");
        Assert.DoesNotContain(await new RuntimeCleaner(etw).FindAsync(CancellationToken.None), l => l.Id == run.Path);
        Assert.Empty(etw.Stopped);
    }

    private static void KillOwner(RunFolder run)
    {
        var path = Path.Combine(run.Path, RunMarker.FileName);
        var marker = TrustedJson.Read<RunMarker>(path)!;
        TrustedJson.Write(path, marker with { Owner = marker.Owner! with { Pid = 3_999_999 } });
    }

    private sealed class RecordingTraceSessions(params string[] active) : ITraceSessionControl
    {
        public List<string> Stopped { get; } = [];

        public IReadOnlyCollection<string> ActiveSessions() => active;

        public bool Stop(string name)
        {
            Stopped.Add(name);
            return true;
        }
    }
}
