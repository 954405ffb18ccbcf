using SqlWaitProbe.Core.Cleanup;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// Finds runs of killed probe processes in this user's private <see cref="RuntimeFolder"/> and removes what they made:
/// processes only while they are the very process recorded (pid, start time, executable, argument), outside folders
/// and files only while they are the very entry recorded (device, inode, owner), trace sessions only when a dead run
/// of this user named them, then the run folder. Nothing is judged by its name, and nothing else is touched.
/// </summary>
public sealed class RuntimeCleaner : ILeftoverCleaner
{
    private const int SigKill = 9;
    private readonly ITraceSessionControl? _traceSessions;
    private readonly Func<RunResource, CancellationToken, Task<string>>? _dropXeSession;
    private readonly Func<RunResource, CancellationToken, Task<string>>? _restoreSetting;
    private readonly TimeSpan _stopWait;
    private readonly List<string> _leftAlone = [];

    /// <summary>
    /// Creates the cleaner; <paramref name="traceSessions"/> stops ETW sessions (Windows), <paramref name="dropXeSession"/>
    /// drops XE sessions and deletes their event files on the server named by <c>--server</c>, returning what it did (without
    /// it, runs that made XE sessions are kept for later).
    /// </summary>
    public RuntimeCleaner(ITraceSessionControl? traceSessions = null, Func<RunResource, CancellationToken, Task<string>>? dropXeSession = null, TimeSpan? stopWait = null)
        : this(traceSessions, dropXeSession, null, stopWait)
    {
    }

    /// <summary>
    /// As the other constructor; <paramref name="restoreSetting"/> puts back a server setting a killed experiment left
    /// changed (given only when the user confirmed it: <c>probe cleanup --restore-settings</c>) and says what it did; it
    /// throws <see cref="InvalidOperationException"/> when it cannot, and the record is kept. Without it, runs that
    /// changed settings are kept with those records, named with the statements that restore them.
    /// </summary>
    public RuntimeCleaner(ITraceSessionControl? traceSessions, Func<RunResource, CancellationToken, Task<string>>? dropXeSession, Func<RunResource, CancellationToken, Task<string>>? restoreSetting, TimeSpan? stopWait = null)
    {
        _traceSessions = traceSessions;
        _dropXeSession = dropXeSession;
        _restoreSetting = restoreSetting;
        _stopWait = stopWait ?? TimeSpan.FromSeconds(5);
    }

    /// <inheritdoc />
    public string Name => "run";

    /// <summary>What the last <see cref="FindAsync"/> saw and will not touch, with why.</summary>
    public IReadOnlyList<string> LeftAlone => _leftAlone;

    /// <inheritdoc />
    public Task<IReadOnlyList<Leftover>> FindAsync(CancellationToken cancellationToken)
    {
        _leftAlone.Clear();
        var found = new List<Leftover>();
        if (RuntimeFolder.Ensure(create: false) is not { } root)
        {
            return Task.FromResult<IReadOnlyList<Leftover>>(found);
        }

        foreach (var entry in Directory.EnumerateFileSystemEntries(root).Order(StringComparer.Ordinal))
        {
            if (Path.GetFileName(entry).StartsWith(RuntimeFolder.ErrorLogPrefix, StringComparison.Ordinal) && PosixFile.LStat(entry) is { IsDirectory: false, IsSymlink: false })
            {
                // The user's internal-error logs: kept for a bug report, not a run's leftovers.
                continue;
            }

            if (ExamineUnfinished(entry) is { } unfinished)
            {
                found.Add(unfinished);
                continue;
            }

            if (Examine(entry) is not { } run)
            {
                continue;
            }

            var actions = Plan(run).Select(a => a.Text).ToList();
            actions.AddRange(Directory.EnumerateFiles(entry, "*", new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = 0 })
                .Order(StringComparer.Ordinal).Select(f => "delete " + f));
            actions.Add("delete folder " + entry);
            found.Add(new Leftover(Name, entry, $"{run.Marker.Kind} run {run.Marker.RunId} of probe {run.Marker.Owner?.Describe() ?? "(unknown)"}, which is gone") { Actions = actions });
        }

        return Task.FromResult<IReadOnlyList<Leftover>>(found);
    }

    /// <inheritdoc />
    public async Task<string> RemoveAsync(Leftover leftover, CancellationToken cancellationToken)
    {
        if (RunFolder.UnfinishedOwner(Path.GetFileName(leftover.Id)) is not null)
        {
            // Checked again: still this user's private folder, and its maker still gone.
            if (ExamineUnfinished(leftover.Id) is null)
            {
                return $"left {leftover.Id} alone: {_leftAlone.LastOrDefault() ?? "its probe runs again"}";
            }

            Directory.Delete(leftover.Id, recursive: true);
            return "deleted " + leftover.Id;
        }

        // Everything is checked again: the folder may have changed since it was listed.
        if (Examine(leftover.Id) is not { } run)
        {
            return $"left {leftover.Id} alone: {_leftAlone.LastOrDefault() ?? "it is in use again"}";
        }

        var done = new List<string>();
        var keep = false;
        var keepSettings = false;
        foreach (var step in Plan(run))
        {
            cancellationToken.ThrowIfCancellationRequested();
            switch (step.Kind)
            {
                case StepKind.Process:
                    if (!await StopAsync(step.Resource))
                    {
                        throw new InvalidOperationException($"{step.Resource.Process!.Describe()} did not stop; the run's record is kept");
                    }

                    done.Add("stopped " + step.Resource.Process!.Describe());
                    break;
                case StepKind.Path:
                    DeletePath(step.Resource);
                    done.Add("deleted " + step.Resource.Path);
                    break;
                case StepKind.TraceSession:
                    if (_traceSessions!.Stop(step.Resource.TraceSession!))
                    {
                        done.Add("stopped ETW session " + step.Resource.TraceSession);
                    }

                    break;
                case StepKind.XeSession when _dropXeSession is not null:
                    done.Add(await _dropXeSession(step.Resource, cancellationToken));
                    break;
                case StepKind.XeSession:
                    keep = true;
                    break;
                case StepKind.Setting when _restoreSetting is not null:
                    // Each one confirmed restored is forgotten at once: a later failure keeps only what is still changed.
                    done.Add(await _restoreSetting(step.Resource, cancellationToken));
                    File.Delete(Path.Combine(run.Folder, RunFolder.ResourcePrefix + step.Resource.Name + ".json"));
                    break;
                case StepKind.Setting:
                    keepSettings = true;
                    done.Add(step.Text);
                    break;
            }
        }

        if (keep || keepSettings)
        {
            // XE sessions and changed settings need the server: keep only their records so a later cleanup can act on them.
            foreach (var file in Directory.EnumerateFiles(run.Folder, RunFolder.ResourcePrefix + "*.json"))
            {
                if (TrustedJson.Read<RunResource>(file) is not ({ XeSession: not null } or { ChangedSetting: not null }))
                {
                    File.Delete(file);
                }
            }

            if (keep)
            {
                done.Add("kept the record of its XE session(s) for 'probe cleanup --server'");
            }

            if (keepSettings)
            {
                done.Add("kept its record of the server settings above");
            }
        }
        else
        {
            Directory.Delete(run.Folder, recursive: true);
            done.Add("deleted " + run.Folder);
        }

        return string.Join("; ", done);
    }

    /// <summary>True when the process a resource records is running now as the very same process, with the recorded argument.</summary>
    public static bool IsRecordedProcess(RunResource resource) =>
        resource.Process is { } p && p.IsRunning
        && (resource.ProcessArgument is null || ProcessIdentity.CommandLine(p.Pid).Contains(resource.ProcessArgument, StringComparer.Ordinal));

    /// <summary>True when the path a resource records is still the entry the run made (same device, inode and owner; not a link).</summary>
    public static bool IsRecordedPath(RunResource resource) =>
        resource is { Path: { } path, Inode: { } inode, Device: { } device, Uid: { } uid }
        && PosixFile.LStat(path) is { IsSymlink: false } s && s.Inode == inode && s.Device == device && s.Uid == uid;

    /// <summary>
    /// A run folder whose probe was killed while making it (before its owner marker was in and it was renamed): its name
    /// carries the maker's pid and start time. It holds no record of anything made elsewhere (records come after the
    /// rename), so removing it touches only itself; it is removed only when it is a private folder of this user and its
    /// maker is gone.
    /// </summary>
    private Leftover? ExamineUnfinished(string entry)
    {
        if (RunFolder.UnfinishedOwner(Path.GetFileName(entry)) is not { } maker)
        {
            return null;
        }

        if (RuntimeFolder.Problem(entry) is { } problem)
        {
            _leftAlone.Add($"{entry}: {problem}; left alone");
            return null;
        }

        if (ProcessIdentity.Read(maker.Pid) is { } now && now.StartTicks == maker.StartTicks)
        {
            // Its probe is still making it.
            return null;
        }

        var actions = Directory.EnumerateFiles(entry, "*", new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = 0 })
            .Order(StringComparer.Ordinal).Select(f => "delete " + f).ToList();
        actions.Add("delete folder " + entry);
        return new Leftover(Name, entry, $"a run folder probe pid {maker.Pid} was still making when it was stopped (no owner marker yet; nothing recorded in it)") { Actions = actions };
    }

    private RunState? Examine(string entry)
    {
        if (RuntimeFolder.Problem(entry) is { } problem)
        {
            _leftAlone.Add($"{entry}: {problem}; left alone");
            return null;
        }

        var markerPath = Path.Combine(entry, RunMarker.FileName);
        if (TrustedJson.Read<RunMarker>(markerPath) is not { Owner: not null } marker)
        {
            _leftAlone.Add($"{entry}: no owner marker this user wrote ({TrustedJson.Distrust(markerPath) ?? "unreadable"}); left alone");
            return null;
        }

        if (marker.Owner.IsRunning)
        {
            // A live run: its probe removes its own things.
            return null;
        }

        var resources = new List<RunResource>();
        foreach (var file in Directory.EnumerateFiles(entry, RunFolder.ResourcePrefix + "*.json").Order(StringComparer.Ordinal))
        {
            if (TrustedJson.Read<RunResource>(file) is { } resource)
            {
                resources.Add(resource);
            }
            else
            {
                _leftAlone.Add($"{file}: not a record this user wrote ({TrustedJson.Distrust(file) ?? "unreadable"}); what it names is left alone");
            }
        }

        return new RunState(entry, marker, resources);
    }

    private List<Step> Plan(RunState run)
    {
        var steps = new List<Step>();
        var active = _traceSessions?.ActiveSessions();
        // Changed settings last and newest first, as the experiment itself restores them.
        foreach (var r in run.Resources.OrderBy(r => r.ChangedSetting is null ? 0 : 1).ThenByDescending(r => SettingOrder(r.Name)))
        {
            if (r.Process is { } p)
            {
                if (IsRecordedProcess(r))
                {
                    steps.Add(new Step(StepKind.Process, r, $"stop {p.Describe()}: {r.Description}"));
                }
                else
                {
                    _leftAlone.Add($"{r.Description}: pid {p.Pid} is not the recorded process any more (gone, or another process now); not signalled");
                }
            }

            if (r.Path is { } path)
            {
                if (IsRecordedPath(r))
                {
                    steps.Add(new Step(StepKind.Path, r, $"delete {(Directory.Exists(path) ? "folder" : "file")} {path} and everything in it: {r.Description}"));
                }
                else if (PosixFile.LStat(path) is not null || !OperatingSystem.IsLinux())
                {
                    _leftAlone.Add($"{path}: not the entry this run made (other inode, owner or a link); left alone");
                }
            }

            if (r.TraceSession is { } session && active is not null && active.Contains(session))
            {
                steps.Add(new Step(StepKind.TraceSession, r, $"stop ETW session {session}"));
            }

            if (r.ChangedSetting is { } changed)
            {
                var restore = string.Join(" ", r.RestoreStatements);
                steps.Add(new Step(StepKind.Setting, r, _restoreSetting is null
                    ? $"keep the record of {changed} left changed on {r.SettingServer} (was {r.SettingBefore}); restore it with 'probe cleanup --restore-settings' or: {restore}"
                    : $"restore {changed} to {r.SettingBefore} on {r.SettingServer}, only if it is still {r.SettingIdentity}: {restore}"));
            }

            if (r.XeSession is { } xe)
            {
                var files = r.XeEventFiles.Count == 0 ? "" : $" and delete its event files {string.Join(", ", r.XeEventFiles.Select(f => f + "_0_*.xel"))} (only those, when the server runs on this machine)";
                steps.Add(new Step(StepKind.XeSession, r, _dropXeSession is null
                    ? $"keep the record of XE session {xe}{(files.Length == 0 ? "" : " and its event files")} ({(files.Length == 0 ? "drop it" : "remove them")} with 'probe cleanup --server')"
                    : $"drop XE session {xe} on the server{files}"));
            }
        }

        return steps;
    }

    private static int SettingOrder(string name) =>
        name.StartsWith("setting-", StringComparison.Ordinal) && int.TryParse(name.AsSpan(8), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var n) ? n : 0;

    private async Task<bool> StopAsync(RunResource resource)
    {
        foreach (var signal in new[] { resource.StopSignal, SigKill })
        {
            // The identity is compared right before each signal: a pid reused meanwhile is never signalled.
            if (!IsRecordedProcess(resource))
            {
                return true;
            }

            resource.Process!.Signal(signal);
            var waited = System.Diagnostics.Stopwatch.StartNew();
            while (IsRecordedProcess(resource) && waited.Elapsed < _stopWait)
            {
                await Task.Delay(100, CancellationToken.None);
            }
        }

        if (IsRecordedProcess(resource))
        {
            return false;
        }

        // "Stopped" means exited: a zombie left for its parent to reap holds nothing any more.
        var reaped = System.Diagnostics.Stopwatch.StartNew();
        while (ProcessIdentity.IsAlive(resource.Process!.Pid) && reaped.Elapsed < TimeSpan.FromSeconds(2))
        {
            await Task.Delay(50, CancellationToken.None);
        }

        return true;
    }

    private static void DeletePath(RunResource resource)
    {
        if (!IsRecordedPath(resource))
        {
            return;
        }

        if (Directory.Exists(resource.Path))
        {
            Directory.Delete(resource.Path!, recursive: true);
        }
        else
        {
            File.Delete(resource.Path!);
        }
    }

    private enum StepKind
    {
        Process,
        Path,
        TraceSession,
        XeSession,
        Setting,
    }

    private sealed record Step(StepKind Kind, RunResource Resource, string Text);

    private sealed record RunState(string Folder, RunMarker Marker, IReadOnlyList<RunResource> Resources);
}
