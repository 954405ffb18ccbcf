namespace SqlWaitProbe.Core.Watch;

/// <summary>
/// An engine that <c>probe watch</c> can run on: it checks the triggers' wait names against its own wait names, polls
/// its sessions for the triggers, and opens its attach windows even while no session matches the filters (a watch waits
/// for them to come).
/// </summary>
public interface IWatchableEngine
{
    /// <summary>Why <paramref name="trigger"/> cannot be measured on this engine (one line naming what to write instead), or null when it can.</summary>
    string? CheckTrigger(TriggerSpec trigger);

    /// <summary>Opens the poll of the sessions the attach filters match; throws an environment problem when the server cannot be reached.</summary>
    Task<IWatchMonitor> OpenMonitorAsync(CancellationToken cancellationToken);

    /// <summary>The triggers' poll as it is sent, for the watch's dry run.</summary>
    string MonitorStatement();

    /// <summary>When set, an attach window whose filters match no session now opens anyway and follows the sessions that come.</summary>
    bool OpenWhenNoneMatch { get; set; }
}
