using System.Globalization;
using SqlWaitProbe.Core.Os;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>Parsers for the /proc files the collectors read.</summary>
public static class ProcFiles
{
    /// <summary>Clock ticks per second of the utime/stime fields (<c>sysconf(_SC_CLK_TCK)</c>, usually 100).</summary>
    public static long TicksPerSecond => Libc.ClockTicksPerSecond;

    /// <summary>
    /// utime + stime of <c>/proc/PID/stat</c> text in ticks. Fields are counted after the last <c>)</c>
    /// because the command name may hold spaces and parentheses.
    /// </summary>
    public static long ParseStatCpuTicks(string stat)
    {
        var close = stat.LastIndexOf(')');
        if (close < 0)
        {
            throw new FormatException("no ')' in /proc/PID/stat");
        }

        // After ')' come field 3 (state) onwards; utime is field 14 and stime field 15.
        var fields = stat[(close + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
    }

    /// <summary>The run-queue wait (ns) of <c>/proc/PID/schedstat</c> text: its second number.</summary>
    public static long ParseSchedstatRunQueueNs(string schedstat) =>
        long.Parse(schedstat.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture);

    /// <summary>On-CPU and run-queue ns of <c>/proc/PID/schedstat</c> text: its first two numbers (nanosecond scheduler accounting).</summary>
    public static (long CpuNs, long RunQueueNs) ParseSchedstat(string schedstat)
    {
        var fields = schedstat.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return (long.Parse(fields[0], CultureInfo.InvariantCulture), long.Parse(fields[1], CultureInfo.InvariantCulture));
    }

    /// <summary>On-CPU and run-queue ns of a process from <c>/proc/PID/schedstat</c>, or null when it is gone or the kernel has no schedstat.</summary>
    public static (long CpuNs, long RunQueueNs)? ReadSchedstat(int pid)
    {
        try
        {
            return ParseSchedstat(File.ReadAllText($"/proc/{pid}/schedstat"));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>CPU ticks and run-queue ns of a process, or null when it is gone.</summary>
    public static (long CpuTicks, long? RunQueueNs)? ReadProcess(int pid)
    {
        try
        {
            var ticks = ParseStatCpuTicks(File.ReadAllText($"/proc/{pid}/stat"));
            long? runQueue = null;
            var schedstat = $"/proc/{pid}/schedstat";
            if (File.Exists(schedstat))
            {
                runQueue = ParseSchedstatRunQueueNs(File.ReadAllText(schedstat));
            }

            return (ticks, runQueue);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// The machine's CPU ticks by kind (the <c>cpu</c> line of <c>/proc/stat</c>, its first line), without the rest of
    /// the file or the other files <see cref="ReadOs"/> reads: what a watch's triggers' poll needs five times a second.
    /// </summary>
    public static long[] ReadCpuTicks()
    {
        using var reader = new StreamReader("/proc/stat");
        var line = reader.ReadLine();
        return line is not null && line.StartsWith("cpu ", StringComparison.Ordinal)
            ? line[4..].Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(v => long.Parse(v, CultureInfo.InvariantCulture)).ToArray()
            : throw new IOException("/proc/stat does not start with its cpu line");
    }

    /// <summary>The whole-machine figures of /proc/stat, /proc/vmstat and /proc/meminfo at one moment.</summary>
    public static OsSnapshot ReadOs()
    {
        long[] cpu = [];
        long contextSwitches = 0, running = 0;
        foreach (var line in File.ReadLines("/proc/stat"))
        {
            if (line.StartsWith("cpu ", StringComparison.Ordinal))
            {
                cpu = line[4..].Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(v => long.Parse(v, CultureInfo.InvariantCulture)).ToArray();
            }
            else if (line.StartsWith("ctxt ", StringComparison.Ordinal))
            {
                contextSwitches = long.Parse(line[5..], CultureInfo.InvariantCulture);
            }
            else if (line.StartsWith("procs_running ", StringComparison.Ordinal))
            {
                running = long.Parse(line[14..], CultureInfo.InvariantCulture);
            }
        }

        long faults = 0, majorFaults = 0;
        foreach (var line in File.ReadLines("/proc/vmstat"))
        {
            if (line.StartsWith("pgfault ", StringComparison.Ordinal))
            {
                faults = long.Parse(line[8..], CultureInfo.InvariantCulture);
            }
            else if (line.StartsWith("pgmajfault ", StringComparison.Ordinal))
            {
                majorFaults = long.Parse(line[11..], CultureInfo.InvariantCulture);
            }
        }

        long availableKb = 0;
        foreach (var line in File.ReadLines("/proc/meminfo"))
        {
            if (line.StartsWith("MemAvailable:", StringComparison.Ordinal))
            {
                availableKb = long.Parse(line[13..].Trim().Split(' ')[0], CultureInfo.InvariantCulture);
                break;
            }
        }

        return new OsSnapshot(DateTime.UtcNow, cpu, contextSwitches, running, faults, majorFaults, availableKb);
    }
}
