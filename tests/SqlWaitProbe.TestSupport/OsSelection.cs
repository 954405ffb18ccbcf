using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Linux;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Windows;

namespace SqlWaitProbe.TestSupport;

/// <summary>The OS collector catalogs of both platforms, as a capture on either would ask them, with this test's own availability answers.</summary>
public static class OsSelection
{
    public static OptionValues Values(string? cpu = null, int? hz = null, string? offCpu = null, int? maxPerf = null, string? callGraph = null) =>
        OptionValues.Of((CpuOptions.Cpu, cpu), (CpuOptions.SampleHz, hz), (CpuOptions.OffCpu, offCpu), (PerfOptions.MaxPerfMegabytes, maxPerf), (PerfOptions.CallGraph, callGraph));

    public static OsCollectorCatalog Catalog(bool windows, Func<string?>? perfProblem = null, Func<string?>? etwProblem = null)
    {
        var linux = LinuxCollectors.Create(perfProblem ?? (() => null));
        var other = WindowsCollectors.Create(etwProblem ?? (() => null));
        return windows
            ? new(other, [.. linux.SelectMany(m => m.Options)])
            : new(linux, [.. other.SelectMany(m => m.Options)]);
    }

    public static IReadOnlyList<CollectorChoice> Select(OptionValues options, string serverProcess, bool serverIsLocal, bool processPerSession, OsCollectorCatalog catalog, double? phaseSeconds = null, int logicalCpus = 2) =>
        [.. catalog.Choose(new OsSetup
        {
            Options = options,
            ServerProcess = serverProcess,
            ServerIsLocal = serverIsLocal,
            ProcessPerSession = processPerSession,
            PhaseSeconds = phaseSeconds,
            LogicalCpus = logicalCpus,
        }).SelectMany(m => m.Choices)];

    public static string? Validate(OptionValues options, bool windows)
    {
        try
        {
            options.Get(CpuOptions.SampleHz);
            CpuOptions.OffCpuOn(options);
        }
        catch (BadInputException e)
        {
            return e.Message;
        }

        return Catalog(windows).Validate(options);
    }
}
