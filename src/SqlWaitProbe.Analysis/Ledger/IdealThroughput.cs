namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>
/// The throughput a phase should reach if nothing but the machine limited it: the baseline's rate per session times the
/// sessions, capped by what the machine's CPUs allow at the baseline's CPU per execution (logical CPUs ÷ CPU seconds per
/// execution). For CPU-bound work that is baseline rate × min(sessions, logical CPUs): four sessions on two CPUs can
/// never run four times as fast as one.
/// </summary>
public static class IdealThroughput
{
    /// <summary>Executions per second the machine's CPUs allow at the baseline's CPU per execution, or null when the baseline's CPU is unknown.</summary>
    /// <param name="baselineMsPerExecution">Session ms per execution in the baseline.</param>
    /// <param name="baselineCpuMsPerExecution">CPU ms per execution in the baseline (0 when not captured).</param>
    /// <param name="logicalCpus">The machine's logical CPUs.</param>
    public static double? MachineCeiling(double baselineMsPerExecution, double baselineCpuMsPerExecution, int logicalCpus)
    {
        if (baselineCpuMsPerExecution <= 0 || logicalCpus <= 0)
        {
            return null;
        }

        // An execution needs at least its CPU time on one CPU; it cannot need more CPU than it took time, so a
        // reading above session time (sampling noise) does not lower the ceiling below baseline rate × CPUs.
        var cpuMs = baselineMsPerExecution > 0 ? Math.Min(baselineCpuMsPerExecution, baselineMsPerExecution) : baselineCpuMsPerExecution;
        return logicalCpus * 1000 / cpuMs;
    }

    /// <summary>The ideal executions per second of <paramref name="threads"/> sessions, or 0 without a baseline rate.</summary>
    public static double PerSecond(int threads, double baselineMsPerExecution, double baselineCpuMsPerExecution, int logicalCpus)
    {
        if (baselineMsPerExecution <= 0)
        {
            return 0;
        }

        var linear = threads * 1000 / baselineMsPerExecution;
        return MachineCeiling(baselineMsPerExecution, baselineCpuMsPerExecution, logicalCpus) is { } ceiling ? Math.Min(linear, ceiling) : linear;
    }
}
