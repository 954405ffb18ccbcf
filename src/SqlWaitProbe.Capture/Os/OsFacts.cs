using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Capture.Os;

/// <summary>What the machine offers, asked only when needed (tests pass their own).</summary>
/// <param name="IsWindows">True on Windows.</param>
/// <param name="PerfProblem">Null when perf can sample every CPU, else why not and the fix.</param>
/// <param name="EtwProblem">Null when ETW kernel sampling can start, else why not and the fix.</param>
public sealed record OsFacts(bool IsWindows, Func<string?> PerfProblem, Func<string?> EtwProblem)
{
    /// <summary>The machine this runs on.</summary>
    public static OsFacts ThisMachine { get; } = new(OperatingSystem.IsWindows(), PerfAvailability.Problem, EtwAvailability.Problem);

    /// <summary>Logical CPUs perf samples (<c>-a</c>), for the estimate of DWARF's data.</summary>
    public int LogicalCpus { get; init; } = Environment.ProcessorCount;
}
