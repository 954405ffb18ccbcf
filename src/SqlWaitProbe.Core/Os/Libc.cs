using System.Runtime.InteropServices;

namespace SqlWaitProbe.Core.Os;

/// <summary>The POSIX calls the probe makes (Linux), declared once.</summary>
public static class Libc
{
    private const int ScClkTck = 2;

    private static readonly Lazy<long> ClockTicks = new(() =>
    {
        try
        {
            var ticks = SysConf(ScClkTck);
            return ticks > 0 ? ticks : 100;
        }
        catch (DllNotFoundException)
        {
            return 100;
        }
    });

    /// <summary>Clock ticks per second of /proc's time fields (<c>sysconf(_SC_CLK_TCK)</c>, usually 100; 100 where libc is absent).</summary>
    public static long ClockTicksPerSecond => ClockTicks.Value;

    /// <summary>The effective user id of this process.</summary>
    public static uint EffectiveUserId() => GetEuid();

    /// <summary>True when the probe runs as root on Linux.</summary>
    public static bool IsRoot => OperatingSystem.IsLinux() && GetEuid() == 0;

    /// <summary>Sends <paramref name="signal"/> to <paramref name="pid"/>; false when the process is gone or not ours (and for pid 0 or below, which would signal a group).</summary>
    public static bool Signal(int pid, int signal) => pid > 0 && Kill(pid, signal) == 0;

    /// <summary>
    /// The absolute path of <paramref name="path"/> with every symbolic link, <c>.</c> and <c>..</c> resolved
    /// (<c>realpath</c>), or null when it does not exist or cannot be resolved.
    /// </summary>
    public static string? RealPath(string path)
    {
        var resolved = RealPathNative(path, IntPtr.Zero);
        if (resolved == IntPtr.Zero)
        {
            return null;
        }

        try
        {
            return Marshal.PtrToStringUTF8(resolved);
        }
        finally
        {
            Free(resolved);
        }
    }

    /// <summary>
    /// Sets the scheduling priority (nice value, −20 to 19) of the thread <paramref name="pid"/> names (a process's
    /// main thread); false when it is gone or the caller may not (raising priority needs root).
    /// </summary>
    public static bool SetNice(int pid, int nice) => pid > 0 && OperatingSystem.IsLinux() && SetPriority(PrioProcess, pid, nice) == 0;

    /// <summary>The kernel's id of the calling thread (what <see cref="SetNice"/> takes to set that thread alone).</summary>
    public static int CurrentThreadId() => OperatingSystem.IsLinux() ? GetTid() : 0;

    /// <summary>
    /// Seconds since boot on the clock perf stamps samples with when asked for <c>-k boottime</c>
    /// (<c>clock_gettime(CLOCK_BOOTTIME)</c>, the clock of <c>/proc/uptime</c> to the nanosecond); NaN off Linux.
    /// </summary>
    public static double BootTimeSeconds() =>
        OperatingSystem.IsLinux() && ClockGetTime(ClockBootTime, out var now) == 0 ? now.Seconds + now.Nanoseconds / 1e9 : double.NaN;

    private const int ClockBootTime = 7;

    private const int PrioProcess = 0;

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    [DllImport("libc", EntryPoint = "clock_gettime")]
    private static extern int ClockGetTime(int clock, out TimeSpec time);

    [DllImport("libc", EntryPoint = "gettid")]
    private static extern int GetTid();

    [DllImport("libc", EntryPoint = "setpriority", SetLastError = true)]
    private static extern int SetPriority(int which, int who, int priority);

    [DllImport("libc", EntryPoint = "geteuid")]
    private static extern uint GetEuid();

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);

    [DllImport("libc", EntryPoint = "realpath", SetLastError = true)]
    private static extern IntPtr RealPathNative([MarshalAs(UnmanagedType.LPUTF8Str)] string path, IntPtr resolved);

    [DllImport("libc", EntryPoint = "free")]
    private static extern void Free(IntPtr pointer);

    [DllImport("libc", EntryPoint = "sysconf")]
    private static extern long SysConf(int name);

    /// <summary><c>mkfifo(path, mode)</c>: 0 or -1 (errno in <see cref="Marshal.GetLastPInvokeError"/>).</summary>
    [DllImport("libc", EntryPoint = "mkfifo", SetLastError = true)]
    public static extern int MakeFifo([MarshalAs(UnmanagedType.LPUTF8Str)] string path, uint mode);

    /// <summary><c>open(path, flags)</c>: a descriptor or -1.</summary>
    [DllImport("libc", EntryPoint = "open", SetLastError = true)]
    public static extern int Open([MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags);

    /// <summary><c>read(fd, buffer, count)</c>: bytes read, 0 at end, or -1.</summary>
    [DllImport("libc", EntryPoint = "read", SetLastError = true)]
    public static extern nint Read(int fd, byte[] buffer, nint count);

    /// <summary><c>write(fd, buffer, count)</c>: bytes written or -1.</summary>
    [DllImport("libc", EntryPoint = "write", SetLastError = true)]
    public static extern nint Write(int fd, byte[] buffer, nint count);

    /// <summary><c>close(fd)</c>.</summary>
    [DllImport("libc", EntryPoint = "close", SetLastError = true)]
    public static extern int Close(int fd);

    /// <summary>open(2) flags on Linux: read only.</summary>
    public const int OpenReadOnly = 0;

    /// <summary>open(2) flags on Linux: write only.</summary>
    public const int OpenWriteOnly = 1;

    /// <summary>open(2) flags on Linux: non-blocking.</summary>
    public const int OpenNonBlocking = 0x800;

    /// <summary>open(2) flags on Linux: close on exec.</summary>
    public const int OpenCloseOnExec = 0x80000;
}
