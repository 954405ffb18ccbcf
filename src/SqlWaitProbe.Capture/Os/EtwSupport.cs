using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.OffCpu;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Capture.Os;

/// <summary>What <c>probe capture</c> and <c>probe cleanup</c> call for ETW and PDH, safe to call on any OS.</summary>
public static class EtwSupport
{
    /// <summary>The ETW stack collector for a capture, or one that records why it cannot run off Windows.</summary>
    public static ICollector CreateCpuCollector(EtwCpuSettings settings, IProgress<string>? progress) =>
        OperatingSystem.IsWindows()
            ? new EtwCpuCollector(settings, progress)
            : new NotRunCollector("etw", CollectorStatus.Failed, EtwAvailability.NeedsWindows);

    /// <summary>The Windows off-CPU collector, reporting what the ETW collector sets in <paramref name="outcome"/>, or one that records why it cannot run off Windows.</summary>
    public static ICollector CreateOffCpuCollector(EtwOffCpuOutcome outcome) =>
        OperatingSystem.IsWindows()
            ? new EtwOffCpuCollector(outcome)
            : new NotRunCollector(EtwOffCpuFiles.CollectorName, CollectorStatus.Failed, EtwAvailability.NeedsWindows);

    /// <summary>The PDH counter collector, or one that records why it cannot run off Windows (Linux captures read /proc instead).</summary>
    public static ICollector CreateCounterCollector(string serverProcess) =>
        OperatingSystem.IsWindows()
            ? new PdhCounterCollector(serverProcess)
            : new NotRunCollector("pdh", CollectorStatus.Skipped, "PDH counters need Windows");

    /// <summary>ETW sessions for <c>probe cleanup</c>, or null off Windows (where there are none).</summary>
    public static ITraceSessionControl? TraceSessions() => OperatingSystem.IsWindows() ? new EtwTraceSessionControl() : null;
}
