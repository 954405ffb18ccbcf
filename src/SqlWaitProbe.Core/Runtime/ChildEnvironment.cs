using System.Diagnostics;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// The environment a helper process (perf, initdb, pg_ctl) gets: only what it needs to find its tools, symbols and
/// temporary space, so secrets the probe was given (a password variable, a connection string) never reach it.
/// </summary>
public static class ChildEnvironment
{
    private static readonly string[] Kept = ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "USER", "LOGNAME"];

    /// <summary>Replaces <paramref name="info"/>'s environment with the kept variables (and those starting with <paramref name="prefix"/>).</summary>
    public static ProcessStartInfo Minimal(ProcessStartInfo info, string? prefix = null)
    {
        var keep = info.Environment
            .Where(kv => kv.Value is not null && (Kept.Contains(kv.Key, StringComparer.Ordinal) || (prefix is not null && kv.Key.StartsWith(prefix, StringComparison.Ordinal))))
            .ToList();
        info.Environment.Clear();
        foreach (var (key, value) in keep)
        {
            info.Environment[key] = value;
        }

        return info;
    }
}
