using Microsoft.Diagnostics.Tracing.Parsers;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>Names of the probe's ETW sessions, so a session left by a killed run can be recognised and stopped.</summary>
public static class EtwSessionNames
{
    /// <summary>Every session the probe starts is named with this prefix and the run id.</summary>
    public const string Prefix = "SqlWaitProbe-";

    /// <summary>Windows 8 (6.2): the first version whose kernel provider runs in a session of any name.</summary>
    public static readonly Version NamedKernelSessionsSince = new(6, 2);

    /// <summary>
    /// The session name for <paramref name="runId"/>: <c>SqlWaitProbe-&lt;runId&gt;</c>, or the one fixed kernel
    /// session name before Windows 8, where the kernel provider accepts no other.
    /// </summary>
    public static string For(string runId, Version osVersion)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(runId);
        ArgumentNullException.ThrowIfNull(osVersion);
        return osVersion < NamedKernelSessionsSince ? KernelTraceEventParser.KernelSessionName : Prefix + runId;
    }

    /// <summary>True for a session a probe run started.</summary>
    public static bool IsProbeSession(string sessionName) =>
        sessionName.StartsWith(Prefix, StringComparison.Ordinal) && sessionName.Length > Prefix.Length;
}
