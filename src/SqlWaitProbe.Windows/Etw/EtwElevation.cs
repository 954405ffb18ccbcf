using System.Runtime.Versioning;
using Microsoft.Diagnostics.Tracing.Session;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>Checks up front that kernel tracing is allowed.</summary>
[SupportedOSPlatform("windows")]
public static class EtwElevation
{
    /// <summary>Throws <see cref="EnvironmentProblemException"/> unless the process runs elevated.</summary>
    public static void EnsureElevated()
    {
        if (TraceEventSession.IsElevated() != true)
        {
            throw new EnvironmentProblemException(
                "ETW CPU sampling needs an elevated (Administrator) prompt",
                "Run the terminal as Administrator, or use --cpu none.");
        }
    }
}
