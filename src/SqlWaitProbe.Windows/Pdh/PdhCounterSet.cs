namespace SqlWaitProbe.Windows.Pdh;

/// <summary>The counters the PDH collector reads every second, as English counter paths.</summary>
public static class PdhCounterSet
{
    /// <summary>Total CPU busy percentage.</summary>
    public const string ProcessorTime = @"\Processor(_Total)\% Processor Time";
    /// <summary>CPU percentage in kernel mode.</summary>
    public const string PrivilegedTime = @"\Processor(_Total)\% Privileged Time";
    /// <summary>CPU percentage in deferred procedure calls.</summary>
    public const string DpcTime = @"\Processor(_Total)\% DPC Time";
    /// <summary>CPU percentage servicing interrupts.</summary>
    public const string InterruptTime = @"\Processor(_Total)\% Interrupt Time";
    /// <summary>Free physical memory in MB.</summary>
    public const string AvailableMBytes = @"\Memory\Available MBytes";
    /// <summary>Pages read from or written to disk to resolve hard faults, per second.</summary>
    public const string PagesPerSec = @"\Memory\Pages/sec";
    /// <summary>Thread switches per second, all CPUs.</summary>
    public const string ContextSwitches = @"\System\Context Switches/sec";
    /// <summary>Ready threads waiting for a CPU.</summary>
    public const string ProcessorQueueLength = @"\System\Processor Queue Length";

    /// <summary>A process's CPU percentage (100 per fully used core).</summary>
    public static string ProcessProcessorTime(string process) => $@"\Process({process})\% Processor Time";

    /// <summary>A process's kernel-mode CPU percentage (100 per fully used core).</summary>
    public static string ProcessPrivilegedTime(string process) => $@"\Process({process})\% Privileged Time";

    /// <summary>The counters with <paramref name="serverProcess"/> as the process instance.</summary>
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
}
