using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Capture.Os;

/// <summary>What <c>probe capture</c> and <c>probe cleanup</c> call for ETW and PDH, safe to call on any OS.</summary>
public static class EtwSupport
{
    /// <summary>The ETW stack collector for a capture, or one that records why it cannot run off Windows.</summary>
    public static ICollector CreateCpuCollector(EtwCaptureSettings settings, IProgress<string>? progress) =>
        OperatingSystem.IsWindows()
            ? new EtwCpuCollector(settings, progress)
            : new NotRunCollector("etw", CollectorStatus.Failed, EtwAvailability.NeedsWindows);

    /// <summary>The PDH counter collector, or one that records why it cannot run off Windows (Linux captures read /proc instead).</summary>
    public static ICollector CreateCounterCollector(string serverProcess) =>
        OperatingSystem.IsWindows()
            ? new PdhCounterCollector(serverProcess)
            : new NotRunCollector("pdh", CollectorStatus.Skipped, "PDH counters need Windows");

    /// <summary>ETW sessions a killed run left behind (none off Windows).</summary>
    public static Task<IReadOnlyList<string>> FindLeftoversAsync(CancellationToken cancellationToken) =>
        OperatingSystem.IsWindows()
            ? new EtwLeftoverCleaner().FindAsync(cancellationToken)
            : Task.FromResult<IReadOnlyList<string>>([]);

    /// <summary>
    /// Stops ETW sessions a killed run left behind and deletes their raw trace files; returns what it removed,
    /// session names first (nothing off Windows).
    /// </summary>
    public static async Task<IReadOnlyList<string>> CleanupAsync(CancellationToken cancellationToken)
    {
        if (!OperatingSystem.IsWindows())
        {
            return [];
        }

        EtwElevation.EnsureElevated();
        var cleaner = new EtwLeftoverCleaner();
        var removed = new List<string>();
        removed.AddRange((await cleaner.RemoveAsync(cancellationToken).ConfigureAwait(false)).Select(name => $"ETW session {name}"));
        removed.AddRange(cleaner.DeleteLeftoverTraceFiles().Select(file => $"trace file {file}"));
        return removed;
    }
}
