using Microsoft.Diagnostics.Tracing.Session;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>Whether ETW CPU sampling can run here, answered before anything starts.</summary>
public static class EtwAvailability
{
    /// <summary>The reason ETW sampling cannot run off Windows.</summary>
    public const string NeedsWindows = "ETW CPU sampling needs Windows; on Linux use --cpu perf";

    /// <summary>The reason ETW sampling cannot run without elevation, with the fix.</summary>
    public const string NeedsElevation = "ETW CPU sampling needs an elevated (Administrator) prompt: run the terminal as Administrator, or use --cpu none";

    /// <summary>Null when kernel sampling can start here, else why not (off Windows, or not elevated).</summary>
    public static string? Problem()
    {
        if (!OperatingSystem.IsWindows())
        {
            return NeedsWindows;
        }

        return TraceEventSession.IsElevated() == true ? null : NeedsElevation;
    }
}
