using System.Runtime.Versioning;
using Microsoft.Diagnostics.Tracing.Session;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>ETW sessions as <c>probe cleanup</c> sees them: listed by name, stopped one at a time, only those a dead run of this user recorded.</summary>
[SupportedOSPlatform("windows")]
public sealed class EtwTraceSessionControl : ITraceSessionControl
{
    /// <inheritdoc />
    public IReadOnlyCollection<string> ActiveSessions() => TraceEventSession.GetActiveSessionNames().ToHashSet(StringComparer.Ordinal);

    /// <inheritdoc />
    public bool Stop(string name)
    {
        using var session = TraceEventSession.GetActiveSession(name);
        return session is not null && session.Stop(noThrow: true);
    }
}
