namespace SqlWaitProbe.Linux.Proc;

/// <summary>Machine-wide counters at one moment.</summary>
/// <param name="Utc">When they were read.</param>
/// <param name="CpuTicks">The <c>cpu</c> line of /proc/stat: user nice system idle iowait irq softirq steal …</param>
/// <param name="ContextSwitches">Total context switches (<c>ctxt</c>).</param>
/// <param name="ProcsRunning">Runnable tasks now (<c>procs_running</c>).</param>
/// <param name="Faults">All page faults (<c>pgfault</c>, minor and major).</param>
/// <param name="MajorFaults">Major page faults (<c>pgmajfault</c>).</param>
/// <param name="AvailableKb">MemAvailable in KiB.</param>
public sealed record OsSnapshot(DateTime Utc, long[] CpuTicks, long ContextSwitches, long ProcsRunning, long Faults, long MajorFaults, long AvailableKb)
{
    /// <summary>The series of the interval from <paramref name="before"/> to this snapshot, named as in the bundle format.</summary>
    public IEnumerable<(string Series, double Value)> SeriesSince(OsSnapshot before)
    {
        var seconds = Math.Max(1e-6, (Utc - before.Utc).TotalSeconds);
        long Delta(int i) => i < CpuTicks.Length && i < before.CpuTicks.Length ? CpuTicks[i] - before.CpuTicks[i] : 0;

        // guest time is already included in user; count the first eight fields only.
        var total = Math.Max(1, Enumerable.Range(0, 8).Sum(Delta));
        double Pct(long v) => 100.0 * v / total;
        yield return ("os.cpu.user_pct", Pct(Delta(0) + Delta(1)));
        yield return ("os.cpu.system_pct", Pct(Delta(2) + Delta(5) + Delta(6)));
        yield return ("os.cpu.iowait_pct", Pct(Delta(4)));
        yield return ("os.cpu.steal_pct", Pct(Delta(7)));
        yield return ("os.cpu.idle_pct", Pct(Delta(3)));
        yield return ("os.context_switches_per_sec", (ContextSwitches - before.ContextSwitches) / seconds);
        yield return ("os.minor_faults_per_sec", (Faults - before.Faults - (MajorFaults - before.MajorFaults)) / seconds);
        yield return ("os.major_faults_per_sec", (MajorFaults - before.MajorFaults) / seconds);
        yield return ("os.mem.available_mb", AvailableKb / 1024.0);
        yield return ("os.run_queue", ProcsRunning);
    }
}
