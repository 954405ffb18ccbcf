namespace SqlWaitProbe.Windows.Pdh;

/// <summary>
/// The counters the PDH collector reads every second, as English counter paths. CPU comes from
/// <c>\Processor Information(_Total)</c>, which covers every processor group (<c>\Processor</c> stops at the 64 CPUs
/// of one group). The server's process is the <c>\Process</c> instance whose <c>ID Process</c> is its pid: with several
/// instances PDH names them <c>sqlservr</c>, <c>sqlservr#1</c>, … and renumbers them as processes come and go, so the
/// instance is picked again in every sample and its rates computed from its own raw values of the sample before
/// (<see cref="PdhServerCpu"/>); its columns are named <c>\Process(NAME:PID)</c>, the pid-stable name
/// <c>\Process V2</c> uses.
/// </summary>
public static class PdhCounterSet
{
    /// <summary>Total CPU busy percentage.</summary>
    public const string ProcessorTime = @"\Processor Information(_Total)\% Processor Time";
    /// <summary>CPU percentage in kernel mode.</summary>
    public const string PrivilegedTime = @"\Processor Information(_Total)\% Privileged Time";
    /// <summary>CPU percentage in deferred procedure calls.</summary>
    public const string DpcTime = @"\Processor Information(_Total)\% DPC Time";
    /// <summary>CPU percentage servicing interrupts.</summary>
    public const string InterruptTime = @"\Processor Information(_Total)\% Interrupt Time";
    /// <summary>Free physical memory in MB.</summary>
    public const string AvailableMBytes = @"\Memory\Available MBytes";
    /// <summary>Pages read from or written to disk to resolve hard faults, per second.</summary>
    public const string PagesPerSec = @"\Memory\Pages/sec";
    /// <summary>Thread switches per second, all CPUs.</summary>
    public const string ContextSwitches = @"\System\Context Switches/sec";
    /// <summary>Ready threads waiting for a CPU.</summary>
    public const string ProcessorQueueLength = @"\System\Processor Queue Length";

    /// <summary>The name of the server's process columns: <c>NAME:PID</c> when the pid is known, else the process name.</summary>
    public static string ServerInstance(string process, int? pid) =>
        pid is { } p ? $"{process}:{p.ToString(System.Globalization.CultureInfo.InvariantCulture)}" : process;

    /// <summary>
    /// The wildcard paths read as arrays every sample, in this order: every instance of <paramref name="process"/>'s
    /// <c>ID Process</c>, <c>% Processor Time</c> and <c>% Privileged Time</c>.
    /// </summary>
    public static IReadOnlyList<string> ProcessArrays(string process) =>
        [$@"\Process({process}*)\ID Process", $@"\Process({process}*)\% Processor Time", $@"\Process({process}*)\% Privileged Time"];

    /// <summary>A process's CPU percentage (100 per fully used core).</summary>
    public static string ProcessProcessorTime(string process) => $@"\Process({process})\% Processor Time";

    /// <summary>A process's kernel-mode CPU percentage (100 per fully used core).</summary>
    public static string ProcessPrivilegedTime(string process) => $@"\Process({process})\% Privileged Time";

    /// <summary>The columns of <c>pdh.csv</c>, with <paramref name="serverProcess"/> (see <see cref="ServerInstance"/>) as the process instance.</summary>
    public static IReadOnlyList<string> For(string serverProcess) =>
    [
        ProcessorTime,
        PrivilegedTime,
        DpcTime,
        InterruptTime,
        ProcessProcessorTime(serverProcess),
        ProcessPrivilegedTime(serverProcess),
        AvailableMBytes,
        PagesPerSec,
        ContextSwitches,
        ProcessorQueueLength,
    ];

    /// <summary>
    /// One row in the order of <see cref="For"/>: <paramref name="machineWide"/> in the order of <see cref="MachineWide"/>,
    /// with the server's two values (<see cref="PdhServerCpu.Next"/>) in their place.
    /// </summary>
    public static double?[] Row(IReadOnlyList<double?> machineWide, double? serverTotal, double? serverPrivileged)
    {
        ArgumentNullException.ThrowIfNull(machineWide);
        double? At(int i) => i < machineWide.Count ? machineWide[i] : null;
        return [At(0), At(1), At(2), At(3), serverTotal, serverPrivileged, At(4), At(5), At(6), At(7)];
    }

    /// <summary>The machine-wide counters (every column but the process's two), read as single values.</summary>
    public static IReadOnlyList<string> MachineWide { get; } = [ProcessorTime, PrivilegedTime, DpcTime, InterruptTime, AvailableMBytes, PagesPerSec, ContextSwitches, ProcessorQueueLength];
}
