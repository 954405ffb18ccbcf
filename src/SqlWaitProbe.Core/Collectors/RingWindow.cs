using System.Globalization;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// What a watch tells the collectors of one of its ring windows while it runs. An idle watch must cost little for
/// hours, so while the triggers' poll finds every watched session idle and no trigger has chosen the window
/// (<see cref="Quiet"/>), the session samplers take their readings at that poll's ticks (the engine's sampler records
/// its reading rather than asking the server again); while a watched session is in a statement or a transaction
/// they poll at their own fast interval, and at <see cref="IdleInterval"/> in between (the poll not yet quiet again).
/// A window the watch throws away converts nothing (no <c>perf script</c>, no stack normalising), since no one will
/// read it. The parts every window shares (one perf) are the watch's (<see cref="Watch"/>).
/// </summary>
public sealed class RingWindow
{
    /// <summary>The samplers' interval while the watched sessions are all idle, unless a watch says otherwise.</summary>
    public static readonly TimeSpan DefaultIdleInterval = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// The samplers' interval in a watch's window while a watched session is active and no trigger has fired: a watch
    /// runs for hours beside a busy server, where polling every 10 ms took 17% of pgbench's throughput on 2 CPUs
    /// (docs/performance.md); the minutes before a trigger are kept at this pace, the <c>--after</c> part at the fast one.
    /// </summary>
    public static readonly TimeSpan WatchActiveInterval = TimeSpan.FromMilliseconds(50);

    /// <summary>The manifest option that records how the window sampled.</summary>
    public const string ManifestOption = "watch-sampling";

    private volatile bool _sessionsActive;
    private volatile bool _chosen;
    private volatile bool _discarded;

    /// <summary>
    /// A window of <paramref name="watch"/> (null: a window of its own, sampling every <paramref name="idleInterval"/>
    /// while nothing happens).
    /// </summary>
    public RingWindow(TimeSpan idleInterval, WatchRing? watch = null)
    {
        if (idleInterval <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(idleInterval), "the idle interval must be positive");
        }

        IdleInterval = idleInterval;
        Watch = watch;
    }

    /// <summary>What the watch's windows share, or null.</summary>
    public WatchRing? Watch { get; }

    /// <summary>
    /// True while the watch's last poll found every watched session idle, this window's own sampler saw none active and
    /// no trigger has chosen it: its samplers then read at the watch's poll.
    /// </summary>
    public bool Quiet => Watch is { Quiet: true } && !_chosen && !_sessionsActive;

    /// <summary>The samplers' interval while no watched session is active and no trigger has chosen the window.</summary>
    public TimeSpan IdleInterval { get; }

    /// <summary>Set by the engine's sampler at each poll: some watched session is in a statement or a transaction.</summary>
    public bool SessionsActive
    {
        get => _sessionsActive;
        set => _sessionsActive = value;
    }

    /// <summary>Set by the watch when a trigger chose this window as a dump: its <c>--after</c> part is sampled fast.</summary>
    public bool Chosen
    {
        get => _chosen;
        set => _chosen = value;
    }

    /// <summary>Set by the watch before it ends a window it will delete: the collectors skip their conversions.</summary>
    public bool Discarded
    {
        get => _discarded;
        set => _discarded = value;
    }

    /// <summary>The interval a sampler whose own is <paramref name="fast"/> polls at now.</summary>
    public TimeSpan Interval(TimeSpan fast) =>
        _chosen ? fast
        : _sessionsActive ? Watch is null || WatchActiveInterval <= fast ? fast : WatchActiveInterval
        : IdleInterval <= fast ? fast : IdleInterval;

    /// <summary>The manifest's words for how the window sampled, for a sampler whose own interval is <paramref name="fast"/>.</summary>
    public string Describe(TimeSpan fast) => Watch is { } watch
        ? string.Create(CultureInfo.InvariantCulture,
            $"session samplers every {watch.PollInterval.TotalMilliseconds:0} ms with the triggers' poll while every watched session is idle and no trigger has fired, every {Math.Max(fast.TotalMilliseconds, WatchActiveInterval.TotalMilliseconds):0} ms while a watched session is active, every {fast.TotalMilliseconds:0} ms after a trigger")
        : string.Create(CultureInfo.InvariantCulture,
            $"session samplers every {IdleInterval.TotalMilliseconds:0} ms while every watched session is idle and no trigger has fired, every {fast.TotalMilliseconds:0} ms while a watched session is active and after a trigger");
}
