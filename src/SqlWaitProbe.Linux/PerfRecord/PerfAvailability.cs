using System.Diagnostics;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>Whether <c>perf record -a --call-graph</c> can run here, and if not, exactly what to do.</summary>
public static class PerfAvailability
{
    /// <summary>The command that installs perf on Debian.</summary>
    public const string InstallCommand = "sudo apt-get install -y linux-perf";

    /// <summary>Null when perf can sample every CPU, else one line saying what is wrong and how to fix it.</summary>
    public static string? Problem()
    {
        if (!OperatingSystem.IsLinux())
        {
            return "perf CPU sampling needs Linux.";
        }

        try
        {
            using var p = Process.Start(new ProcessStartInfo("perf", "--version") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false });
            if (p is null || !p.WaitForExit(10_000) || p.ExitCode != 0)
            {
                return $"perf is installed but does not run for this kernel. Install the matching tools: {InstallCommand}";
            }
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return $"perf is not installed. Install it with: {InstallCommand}";
        }

        if (Core.Os.Libc.EffectiveUserId() != 0 && ReadParanoid() is { } level && level > 0)
        {
            return $"perf may not sample all CPUs: kernel.perf_event_paranoid is {level}. Run as root, or allow it with: sudo sysctl kernel.perf_event_paranoid=0";
        }

        return null;
    }

    private static int? ReadParanoid()
    {
        try
        {
            return int.TryParse(File.ReadAllText("/proc/sys/kernel/perf_event_paranoid").Trim(), out var v) ? v : null;
        }
        catch (IOException)
        {
            return null;
        }
    }
}
