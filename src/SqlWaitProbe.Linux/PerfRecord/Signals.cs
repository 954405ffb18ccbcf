namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>POSIX signals to child processes.</summary>
public static class Signals
{
    /// <summary>SIGINT: perf record stops and finishes its file.</summary>
    public const int Interrupt = 2;

    /// <summary>SIGKILL.</summary>
    public const int Kill = 9;

    /// <summary>SIGUSR2: a perf record with <c>--switch-output=signal</c> closes its file and opens the next.</summary>
    public const int User2 = 12;

    /// <summary>Sends <paramref name="signal"/> to <paramref name="pid"/>; false when the process is gone.</summary>
    public static bool Send(int pid, int signal) => Core.Os.Libc.Signal(pid, signal);

    /// <summary>True when <paramref name="pid"/> exists and its command line contains <paramref name="needle"/>.</summary>
    public static bool IsRunning(int pid, string needle)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ').Contains(needle, StringComparison.Ordinal);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
