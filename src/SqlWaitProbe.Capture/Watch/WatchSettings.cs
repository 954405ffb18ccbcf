using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Capture.Watch;

/// <summary>The choices of one <c>probe watch</c>, validated before anything starts.</summary>
public sealed record WatchSettings
{
    /// <summary>The folder the dumps go to; the watch's ring, lock and log live in it too.</summary>
    public required string Output { get; init; }

    /// <summary>How much of the time before a trigger a dump holds at least (<c>--keep</c>).</summary>
    public required TimeSpan Keep { get; init; }

    /// <summary>How long the watch goes on capturing after a trigger before the dump is written (<c>--after</c>).</summary>
    public required TimeSpan After { get; init; }

    /// <summary>The triggers, in the order given; the first above its threshold fires.</summary>
    public required IReadOnlyList<TriggerSpec> Triggers { get; init; }

    /// <summary>The watch ends after this many dumps (<c>--max-dumps</c>).</summary>
    public int MaxDumps { get; init; } = 5;

    /// <summary>Triggers firing within this time after a dump's trigger are not dumped again (<c>--cool-down</c>).</summary>
    public TimeSpan CoolDown { get; init; } = TimeSpan.FromMinutes(5);

    /// <summary>At most this many MB in the output folder, dumps and ring together (<c>--disk-budget-mb</c>); a dump that would start above it is not written.</summary>
    public long DiskBudgetMegabytes { get; init; } = 2048;

    /// <summary>How often the triggers' poll runs.</summary>
    public TimeSpan PollInterval { get; init; } = TimeSpan.FromMilliseconds(200);

    /// <summary>The windows' session samplers' interval while every watched session is idle and no trigger has fired.</summary>
    public TimeSpan IdleSampleInterval { get; init; } = Core.Collectors.RingWindow.DefaultIdleInterval;
}
