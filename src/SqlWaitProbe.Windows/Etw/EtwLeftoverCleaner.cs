using System.Runtime.Versioning;
using Microsoft.Diagnostics.Tracing.Session;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Finds and stops ETW sessions a killed probe run left behind (named <c>SqlWaitProbe-…</c>): kernel sessions
/// outlive their process and keep the machine-wide sample rate until stopped.
/// </summary>
[SupportedOSPlatform("windows")]
public sealed class EtwLeftoverCleaner
{
    /// <summary>Names of active probe sessions, except <paramref name="keep"/>.</summary>
    public Task<IReadOnlyList<string>> FindAsync(CancellationToken cancellationToken, string? keep = null) =>
        Task.Run<IReadOnlyList<string>>(
            () => TraceEventSession.GetActiveSessionNames()
                .Where(EtwSessionNames.IsProbeSession)
                .Where(name => !string.Equals(name, keep, StringComparison.Ordinal))
                .OrderBy(name => name, StringComparer.Ordinal)
                .ToArray(),
            cancellationToken);

    /// <summary>Stops every leftover probe session (except <paramref name="keep"/>) and returns the names stopped.</summary>
    public async Task<IReadOnlyList<string>> RemoveAsync(CancellationToken cancellationToken, string? keep = null)
    {
        var stopped = new List<string>();
        foreach (var name in await FindAsync(cancellationToken, keep).ConfigureAwait(false))
        {
            cancellationToken.ThrowIfCancellationRequested();
            using var session = TraceEventSession.GetActiveSession(name);
            if (session is not null && session.Stop(noThrow: true))
            {
                stopped.Add(name);
            }
        }

        return stopped;
    }

    /// <summary>Deletes raw trace files a killed run left behind (see <see cref="EtwLeftoverFiles.Delete"/>).</summary>
    public IReadOnlyList<string> DeleteLeftoverTraceFiles(string? folder = null) => EtwLeftoverFiles.Delete(folder);
}
