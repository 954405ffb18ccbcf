namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// What one run of the probe (a capture) owns on this machine: its run folder in the private <see cref="RuntimeFolder"/>,
/// which its server and collectors share, and the child processes to kill at once on a forced exit. One instance is
/// made per capture and handed to the engine and the collectors, so two captures in one process never touch each
/// other's.
/// </summary>
public sealed class RunScope
{
    private readonly Lock _gate = new();
    private readonly Dictionary<object, Action> _children = [];
    private RunFolder? _folder;

    /// <summary>A scope of <paramref name="kind"/> (<c>capture</c>) for run <paramref name="runId"/>; nothing is made until used.</summary>
    public RunScope(string kind, string runId)
    {
        Kind = kind;
        RunId = runId;
    }

    /// <summary>A new capture scope with a fresh run id (letters and digits).</summary>
    public static RunScope NewCapture() => new("capture", Guid.NewGuid().ToString("N")[..10]);

    /// <summary>What the run is: <c>capture</c>.</summary>
    public string Kind { get; }

    /// <summary>The run id that names everything the run makes: temp folders, XE sessions, perf files.</summary>
    public string RunId { get; }

    /// <summary>
    /// The run's folder, made (with its owner marker) on first use. It goes when its last resource is forgotten, and is
    /// made again for the next one: a folder read here can be gone a moment later, so a resource is recorded through
    /// <see cref="Record"/>, never in a folder read before.
    /// </summary>
    public RunFolder Folder
    {
        get
        {
            lock (_gate)
            {
                if (_folder is null || _folder.IsDeleted)
                {
                    _folder = RuntimeFolder.Run(Kind, RunId, deletedWhenEmpty: true);
                }

                return _folder;
            }
        }
    }

    /// <summary>
    /// Records the resource <paramref name="resource"/> makes for a folder (its files may live in it) in a folder that
    /// exists, and returns that folder: while the resource is recorded the folder stays. Another resource of the run
    /// forgotten at the same moment (an off-CPU perf restarted for a client that reconnects) may delete the folder
    /// between reading <see cref="Folder"/> and recording in it; the record then goes to a new one.
    /// </summary>
    public RunFolder Record(Func<RunFolder, RunResource> resource)
    {
        ArgumentNullException.ThrowIfNull(resource);
        while (true)
        {
            var folder = Folder;
            if (folder.TryRecord(resource(folder)))
            {
                return folder;
            }
        }
    }

    /// <summary>Registers a child process of the run; <paramref name="kill"/> stops it without waiting.</summary>
    public void Track(object child, Action kill)
    {
        lock (_gate)
        {
            _children[child] = kill;
        }
    }

    /// <summary>Forgets a child that ended.</summary>
    public void Untrack(object child)
    {
        lock (_gate)
        {
            _children.Remove(child);
        }
    }

    /// <summary>The forced-exit path (a second Ctrl+C): kills every child still tracked, without waiting.</summary>
    public void KillAll()
    {
        Action[] kills;
        lock (_gate)
        {
            kills = [.. _children.Values];
        }

        foreach (var kill in kills)
        {
            kill();
        }
    }
}
