using System.Diagnostics;
using System.Globalization;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// Who a process is, not just its number: pid, start time (clock ticks after boot, field 22 of <c>/proc/PID/stat</c>;
/// on Windows the start time in UTC ticks) and executable. A pid alone can be reused by any later process; all three
/// together cannot, so the probe records them when it starts a process and compares them before every signal.
/// </summary>
/// <param name="Pid">Process id.</param>
/// <param name="StartTicks">Start time as the OS reports it.</param>
/// <param name="Executable">Path of the executable.</param>
public sealed record ProcessIdentity(int Pid, long StartTicks, string Executable)
{
    /// <summary>The identity of this process.</summary>
    public static ProcessIdentity Current { get; } = Read(Environment.ProcessId) ?? new ProcessIdentity(Environment.ProcessId, 0, Environment.ProcessPath ?? "");

    /// <summary>The identity of <paramref name="pid"/> now, or null when there is no such process or it cannot be read.</summary>
    public static ProcessIdentity? Read(int pid)
    {
        if (pid <= 0)
        {
            return null;
        }

        try
        {
            if (OperatingSystem.IsLinux())
            {
                var stat = File.ReadAllText($"/proc/{pid}/stat");

                // The command name (field 2) is in parentheses and may hold spaces or ')': fields start after the last ')'.
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                var start = long.Parse(fields[19], CultureInfo.InvariantCulture);
                var exe = new FileInfo($"/proc/{pid}/exe").LinkTarget;
                return exe is null ? null : new ProcessIdentity(pid, start, exe);
            }

            using var process = Process.GetProcessById(pid);
            return new ProcessIdentity(pid, process.StartTime.ToUniversalTime().Ticks, process.MainModule?.FileName ?? "");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or InvalidOperationException
                                      or FormatException or IndexOutOfRangeException or System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }

    /// <summary>The command line of <paramref name="pid"/> (Linux), or empty when unreadable.</summary>
    public static IReadOnlyList<string> CommandLine(int pid)
    {
        try
        {
            return OperatingSystem.IsLinux() ? File.ReadAllText($"/proc/{pid}/cmdline").Split('\0', StringSplitOptions.RemoveEmptyEntries) : [];
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    /// <summary>
    /// True while <paramref name="pid"/> names a process that has not exited (Linux): false when there is none, or it
    /// is a zombie (state Z or X in <c>/proc/PID/stat</c>). A zombie has already released its memory, files and
    /// sockets; only its parent's reaping is left, which an init that reaps lazily (a container's) can leave for
    /// seconds. Elsewhere: whether a process with that pid exists.
    /// </summary>
    public static bool IsAlive(int pid)
    {
        try
        {
            if (!OperatingSystem.IsLinux())
            {
                using var process = Process.GetProcessById(pid);
                return !process.HasExited;
            }

            var stat = File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");
            var close = stat.LastIndexOf(')');
            var state = close >= 0 && close + 2 < stat.Length ? stat[close + 2] : '?';
            return state is not ('Z' or 'X');
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or InvalidOperationException)
        {
            return false;
        }
    }

    /// <summary>True when the process running under this pid now is the very one recorded (same start time and executable).</summary>
    public bool IsRunning => Read(Pid) is { } now && now.StartTicks == StartTicks && string.Equals(now.Executable, Executable, StringComparison.Ordinal);

    /// <summary>One phrase for the user: pid, executable and start time in UTC.</summary>
    public string Describe() => $"pid {Pid} ({Executable}, started {StartUtc():yyyy-MM-dd HH:mm:ss} UTC)";

    /// <summary>Sends <paramref name="signal"/> only if this very process still runs; false when it is gone or is now another process.</summary>
    public bool Signal(int signal)
    {
        if (!IsRunning)
        {
            return false;
        }

        if (OperatingSystem.IsLinux())
        {
            return Os.Libc.Signal(Pid, signal);
        }

        using var process = Process.GetProcessById(Pid);
        process.Kill();
        return true;
    }

    private DateTime StartUtc()
    {
        if (!OperatingSystem.IsLinux())
        {
            return new DateTime(StartTicks, DateTimeKind.Utc);
        }

        try
        {
            var boot = File.ReadLines("/proc/stat").First(l => l.StartsWith("btime ", StringComparison.Ordinal));
            var bootUtc = DateTime.UnixEpoch.AddSeconds(long.Parse(boot[6..], CultureInfo.InvariantCulture));
            return bootUtc.AddSeconds(StartTicks / (double)Os.Libc.ClockTicksPerSecond);
        }
        catch (Exception e) when (e is IOException or FormatException or InvalidOperationException)
        {
            return DateTime.UnixEpoch;
        }
    }
}
