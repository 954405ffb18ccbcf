using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows;

/// <summary>
/// The collectors of a Windows machine, in start order within their stage: counters, then the ETW session last. A new
/// Windows collector is registered here with one line.
/// </summary>
public static class WindowsCollectors
{
    /// <summary>The catalog, with this machine's ETW.</summary>
    public static IReadOnlyList<IOsCollectorModule> All { get; } = Create(EtwAvailability.Problem);

    /// <summary>The catalog with <paramref name="etwProblem"/> saying whether ETW can run (tests pass their own).</summary>
    public static IReadOnlyList<IOsCollectorModule> Create(Func<string?> etwProblem) =>
    [
        new PdhModule(),
        new EtwModule(etwProblem),
    ];
}
