using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Capture.Watch;

/// <summary>
/// What a watch asks of the command line that runs it: the request of each attach window (a new engine from the same
/// options), each window's log, and the analysis of a dump, which the capture projects do not reference.
/// </summary>
public interface IWatchHost
{
    /// <summary>
    /// The attach capture of one window into <paramref name="folder"/>, lasting at most <paramref name="longest"/>, ended
    /// early by <paramref name="endWindow"/>; <paramref name="trigger"/> and <paramref name="stopReason"/> are read when it ends.
    /// </summary>
    CaptureRequest WindowRequest(string folder, TimeSpan longest, CancellationToken endWindow, Func<BundleTrigger?> trigger, Func<string?> stopReason);

    /// <summary>The log of one window (its <c>capture.log</c>).</summary>
    ICaptureLog WindowLog();

    /// <summary>The machine's CPU and the run-queue time of <paramref name="reading"/>'s session processes since the last call, or null where not measured.</summary>
    HostSample? ReadHost(WatchReading reading);

    /// <summary>Analyses a dump into its <c>report</c> folder and returns its findings, first first.</summary>
    Task<IReadOnlyList<string>> AnalyseAsync(string bundle, string status, CancellationToken cancellationToken);
}
