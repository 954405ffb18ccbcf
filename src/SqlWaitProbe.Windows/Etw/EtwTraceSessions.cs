using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>The ETW sessions <c>probe cleanup</c> may stop: this machine's on Windows, none elsewhere.</summary>
public static class EtwTraceSessions
{
    /// <summary>ETW sessions for <c>probe cleanup</c>, or null off Windows (where there are none).</summary>
    public static ITraceSessionControl? OfThisMachine() => OperatingSystem.IsWindows() ? new EtwTraceSessionControl() : null;
}
