using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>Turns PDH counter samples into the bundle's per-second series.</summary>
public static class PdhSeriesMapper
{
    /// <summary>
    /// Maps each row: <c>os.cpu.user_pct</c> = processor − privileged, <c>os.cpu.system_pct</c> = privileged,
    /// <c>os.cpu.idle_pct</c> = 100 − processor, <c>server.cpu.user_pct</c>/<c>server.cpu.system_pct</c> from the
    /// process counters divided by <paramref name="logicalCpus"/> (process counters give 100 per busy core; the
    /// series are shares of the whole machine), <c>os.context_switches_per_sec</c>, <c>os.run_queue</c>,
    /// <c>os.mem.available_mb</c>. Missing values produce no point.
    /// </summary>
    public static IReadOnlyList<SeriesPoint> Map(PdhTable table, string serverProcess, int logicalCpus)
    {
        ArgumentNullException.ThrowIfNull(table);
        var cpus = Math.Max(1, logicalCpus);
        var processor = table.IndexOf(PdhCounterSet.ProcessorTime);
        var privileged = table.IndexOf(PdhCounterSet.PrivilegedTime);
        var procTotal = table.IndexOf(PdhCounterSet.ProcessProcessorTime(serverProcess));
        var procPrivileged = table.IndexOf(PdhCounterSet.ProcessPrivilegedTime(serverProcess));
        var switches = table.IndexOf(PdhCounterSet.ContextSwitches);
        var queue = table.IndexOf(PdhCounterSet.ProcessorQueueLength);
        var available = table.IndexOf(PdhCounterSet.AvailableMBytes);

        var points = new List<SeriesPoint>();
        foreach (var row in table.Rows)
        {
            double? At(int i) => i >= 0 && i < row.Values.Count ? row.Values[i] : null;
            void Add(string series, double? value)
            {
                if (value is { } v && double.IsFinite(v))
                {
                    points.Add(new SeriesPoint(row.Utc, series, v));
                }
            }

            var busy = At(processor);
            var kernel = At(privileged);
            Add("os.cpu.user_pct", busy is { } b && kernel is { } k ? Math.Max(0, b - k) : null);
            Add("os.cpu.system_pct", kernel);
            Add("os.cpu.idle_pct", busy is { } b2 ? Math.Max(0, 100 - b2) : null);

            var serverBusy = At(procTotal);
            var serverKernel = At(procPrivileged);
            Add("server.cpu.user_pct", serverBusy is { } sb && serverKernel is { } sk ? Math.Max(0, sb - sk) / cpus : null);
            Add("server.cpu.system_pct", serverKernel / cpus);
            Add("os.context_switches_per_sec", At(switches));
            Add("os.run_queue", At(queue));
            Add("os.mem.available_mb", At(available));
        }

        return points;
    }
}
