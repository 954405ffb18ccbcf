using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Capture.Watch;

/// <summary>
/// One attach window of a watch: an ordinary attach capture into the ring that is either ended and thrown away once a
/// newer window holds <c>--keep</c> on its own, or chosen by a trigger, ended <c>--after</c> it and kept as a dump.
/// </summary>
internal sealed class WatchWindow(int number, string folder, DateTime launchedUtc, TimeSpan idleSampleInterval, WatchRing ring)
{
    /// <summary>What its collectors read of the watch: how fast to sample, whether it is thrown away, what the windows share.</summary>
    public RingWindow Ring { get; } = new(idleSampleInterval, ring);

    /// <summary>Its number in this watch, from 1.</summary>
    public int Number { get; } = number;

    /// <summary>Its bundle folder in the ring.</summary>
    public string Folder { get; } = folder;

    /// <summary>When the watch started it (UTC).</summary>
    public DateTime LaunchedUtc { get; } = launchedUtc;

    /// <summary>The capture it runs.</summary>
    public CaptureRequest Request { get; set; } = null!;

    /// <summary>When its collectors ran and its span began (UTC), once they do.</summary>
    public DateTime? OpenedUtc { get; set; }

    /// <summary>Ends the window early, complete.</summary>
    public CancellationTokenSource End { get; } = new();

    /// <summary>The trigger that chose it as a dump, or null.</summary>
    public TriggerFiring? Firing { get; set; }

    /// <summary>When a chosen window ends (the trigger plus <c>--after</c>, UTC).</summary>
    public DateTime? EndDueUtc { get; set; }

    /// <summary>The capture, running or done.</summary>
    public Task<CaptureOutcome>? Run { get; set; }

    /// <summary>True once ended to be thrown away; its collectors then convert nothing.</summary>
    public bool Discarding
    {
        get => Ring.Discarded;
        set => Ring.Discarded = value;
    }
}
