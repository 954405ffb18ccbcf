using System.Collections.Concurrent;

namespace SqlWaitProbe.Core.Capture;

/// <summary>What collectors know about the phase they are collecting for.</summary>
public sealed class PhaseContext
{
    /// <summary>Creates the context for one phase.</summary>
    public PhaseContext(string name, int threads, string bundleRoot, IReadOnlyList<WorkloadSessionInfo> sessions)
    {
        Name = name;
        Threads = threads;
        BundleRoot = bundleRoot;
        Sessions = sessions;
    }

    /// <summary><c>baseline</c>, <c>load</c>, a sweep level, or <c>attach</c>.</summary>
    public string Name { get; }

    /// <summary>Concurrent workload sessions.</summary>
    public int Threads { get; }

    /// <summary>Absolute path of the bundle folder; collectors write under <see cref="Bundle.BundlePaths.Phase"/>.</summary>
    public string BundleRoot { get; }

    /// <summary>The workload's connections (empty in attach mode).</summary>
    public IReadOnlyList<WorkloadSessionInfo> Sessions { get; }

    /// <summary>Set by the runner when the barrier releases the sessions.</summary>
    public DateTime StartUtc { get; set; }

    /// <summary>Set by the runner when the last session has stopped.</summary>
    public DateTime EndUtc { get; set; }

    /// <summary>Per-second series collectors add to; the runner writes them to <c>series.csv</c>.</summary>
    public PhaseSeries Series { get; } = new();

    /// <summary>Per-session CPU accounting keyed by driver session number; the runner writes it to <c>sessions.csv</c>.</summary>
    public ConcurrentDictionary<int, SessionCpuTime> SessionCpu { get; } = new();

    /// <summary>Absolute path of a bundle-relative file, creating its folder.</summary>
    public string PathFor(string relative)
    {
        var full = Path.Combine(BundleRoot, relative.Replace('/', Path.DirectorySeparatorChar));
        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        return full;
    }
}
