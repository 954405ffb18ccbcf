using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Pdh;
using SqlWaitProbe.Windows.Selection;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>What <c>probe capture</c> and <c>probe cleanup</c> call for ETW and PDH, safe to call on any OS.</summary>
public static class EtwSupport
{
    /// <summary>Throws exit-code-2 input error off Windows, exit-code-1 environment error when not elevated.</summary>
    public static void EnsureAvailable() => EtwAvailability.Ensure();

    /// <summary>The ETW stack collector for a capture (after <see cref="EnsureAvailable"/> checks).</summary>
    public static ICollector CreateCpuCollector(EtwCaptureSettings settings, IProgress<string>? progress)
    {
        if (!OperatingSystem.IsWindows())
        {
            throw new BadInputException(CpuCollectorSelector.EtwNeedsWindows);
        }

        EtwElevation.EnsureElevated();
        return new EtwCpuCollector(settings, progress);
    }

    /// <summary>The PDH counter collector, or null off Windows (Linux captures read /proc instead).</summary>
    public static ICollector? CreateCounterCollector(string serverProcess) =>
        OperatingSystem.IsWindows() ? new PdhCounterCollector(serverProcess) : null;

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
