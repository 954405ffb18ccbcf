using System.Collections.Concurrent;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>What collectors know about the phase they are collecting for.</summary>
public sealed class PhaseContext
{
    private readonly ConcurrentDictionary<int, WorkloadSessionInfo> _observed = new();

    /// <summary>Creates the context for one phase.</summary>
    public PhaseContext(string name, int threads, string bundleRoot, IReadOnlyList<WorkloadSessionInfo> sessions)
    {
        Name = name;
        Threads = threads;
        BundleRoot = bundleRoot;
        Sessions = sessions;
        Live = new LiveSessions(sessions);
    }

    /// <summary><c>baseline</c>, <c>load</c>, a sweep level, or <c>attach</c>.</summary>
    public string Name { get; }

    /// <summary>Concurrent workload sessions.</summary>
    public int Threads { get; }

    /// <summary>Absolute path of the bundle folder; collectors write under <see cref="Bundle.BundlePaths.Phase"/>.</summary>
    public string BundleRoot { get; }

    /// <summary>The workload's connections (empty in attach mode).</summary>
    public IReadOnlyList<WorkloadSessionInfo> Sessions { get; }

    /// <summary>
    /// The sessions as they come and go: <see cref="Sessions"/> at first; in attach mode the engine's sampler adds each
    /// session it sees later and ends those that are gone, and the OS collectors follow them.
    /// </summary>
    public LiveSessions Live { get; }

    /// <summary>Set by the runner when the barrier releases the sessions: the phase's window opens.</summary>
    public DateTime StartUtc { get; set; }

    /// <summary>Set by the runner when the phase's window closes.</summary>
    public DateTime EndUtc { get; set; }

    /// <summary>
    /// How long the runner expects the phase to run, in seconds, set before its collectors are made: the duration, or
    /// for a phase of iterations an estimate from the phase before it; null when nothing tells (the first such phase).
    /// </summary>
    public double? ExpectedSeconds { get; set; }

    /// <summary>
    /// How long the capture waits for an execution after the phase (<c>--finish-within</c>): steps that run the workload
    /// statement once more after it (a plan's EXPLAIN ANALYZE) are bounded by it too.
    /// </summary>
    public TimeSpan FinishWithin { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>The watch's hold on this window when it is one of a watch's ring, else null (a capture of its own).</summary>
    public RingWindow? Ring { get; init; }

    /// <summary>Per-second series collectors add to; the runner writes them to <c>series.csv</c>.</summary>
    public PhaseSeries Series { get; } = new();

    /// <summary>Which session each server OS thread served (SQL Server's worker threads), for the Windows off-CPU stacks.</summary>
    public ServerThreadSessions ServerThreads { get; } = new();

    /// <summary>Per-session CPU accounting keyed by driver session number; the runner writes it to <c>sessions.csv</c>.</summary>
    public ConcurrentDictionary<int, SessionCpuTime> SessionCpu { get; } = new();

    /// <summary>
    /// Records a session a collector observed on the server (attach mode, where the probe opened none) with its CPU
    /// accounting; the runner lists it in <c>sessions.csv</c> after <see cref="Sessions"/>.
    /// </summary>
    public void ObserveSession(WorkloadSessionInfo session, SessionCpuTime cpu)
    {
        ArgumentNullException.ThrowIfNull(session);
        _observed[session.Session] = session;
        SessionCpu[session.Session] = cpu;
    }

    /// <summary>The phase's own sessions, those followed as they came, then the observed ones by number: the rows of <c>sessions.csv</c>.</summary>
    public IReadOnlyList<WorkloadSessionInfo> AllSessions()
    {
        var followed = Live.All;
        return [.. followed, .. _observed.Values.Where(o => followed.All(s => s.Session != o.Session)).OrderBy(o => o.Session)];
    }

    private volatile bool _closed;

    /// <summary>
    /// Closes the phase to its collectors: one left behind after a signal must not add a file once the manifest has
    /// listed the bundle's files, so <see cref="PathFor"/>, through which collectors name their files, refuses from now on.
    /// </summary>
    public void Close() => _closed = true;

    /// <summary>Absolute path of a bundle-relative file, creating its folder.</summary>
    public string PathFor(string relative)
    {
        if (_closed)
        {
            throw new InvalidOperationException($"the phase {Name} was closed before {relative} was written");
        }

        var full = Path.Combine(BundleRoot, relative.Replace('/', Path.DirectorySeparatorChar));
        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        return full;
    }
}
