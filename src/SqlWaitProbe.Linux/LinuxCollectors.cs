using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Linux.OffCpu;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Linux.Proc;

namespace SqlWaitProbe.Linux;

/// <summary>
/// The collectors of a Linux machine, in start order within their stage: counters, then CPU stacks last. A new Linux
/// collector is registered here with one line.
/// </summary>
public static class LinuxCollectors
{
    /// <summary>The catalog, with this machine's perf.</summary>
    public static IReadOnlyList<IOsCollectorModule> All { get; } = Create(PerfAvailability.Problem);

    /// <summary>The catalog with <paramref name="perfProblem"/> saying whether perf can run (tests pass their own).</summary>
    public static IReadOnlyList<IOsCollectorModule> Create(Func<string?> perfProblem) =>
    [
        new ProcCountersModule(),
        new BackendCpuModule(),
        new OffCpuModule(perfProblem),
        new PerfModule(perfProblem),
    ];
}
