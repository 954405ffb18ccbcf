using System.Globalization;

namespace SqlWaitProbe.Cli.SqlServer;

/// <summary>Which OS-side collectors a SQL Server capture runs on this machine, described for dry runs and chosen for captures.</summary>
public static class OsCollectorPlan
{
    /// <summary>The CPU collector: <paramref name="cpu"/> when given, else perf on Linux and etw on Windows.</summary>
    public static string CpuCollector(string? cpu) => cpu ?? (OperatingSystem.IsWindows() ? "etw" : "perf");

    /// <summary>True when <paramref name="dataSource"/> names this machine (the server's process is visible here).</summary>
    public static bool IsLocal(string dataSource)
    {
        var host = dataSource.Split(',')[0].Split('\\')[0].Trim();
        if (host.StartsWith("tcp:", StringComparison.OrdinalIgnoreCase))
        {
            host = host[4..];
        }

        return host is "." or "(local)" or "localhost" or "127.0.0.1" or "::1" or "[::1]"
            || string.Equals(host, Environment.MachineName, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>Lines describing the OS collectors, in the order they would start.</summary>
    public static IReadOnlyList<string> Describe(string? cpu, int sampleHz, bool serverIsLocal)
    {
        var lines = new List<string>();
        var collector = CpuCollector(cpu);
        var hz = sampleHz.ToString(CultureInfo.InvariantCulture);
        if (!serverIsLocal)
        {
            lines.Add("note: the server is not on this machine, so OS collectors would observe this machine only; run probe on the server for CPU stacks of sqlservr");
        }

        if (OperatingSystem.IsWindows())
        {
            lines.Add(collector == "etw"
                ? $"ETW kernel session: Profile sampling with stacks every {1000.0 / sampleHz:0.###} ms (--sample-hz {hz}), image loads and process/thread events; stacks of sqlservr.exe split CPU by module"
                : $"CPU stacks: none (--cpu {collector})");
            lines.Add("PDH counters every 1 s: \\Processor(_Total)\\% User Time, % Privileged Time, \\System\\Context Switches/sec, \\Memory\\Available MBytes, \\Process(sqlservr)\\% Processor Time");
        }
        else
        {
            lines.Add(collector == "perf"
                ? $"perf record -a -g -F {hz} (all CPUs, call graphs; stacks of the sqlservr process split CPU by module)"
                : $"CPU stacks: none (--cpu {collector})");
            lines.Add("/proc sampling every 1 s: /proc/stat (CPU user/system/iowait/steal, context switches), /proc/vmstat (faults), /proc/meminfo, and /proc/<pid>/stat of the sqlservr process");
        }

        return lines;
    }
}
