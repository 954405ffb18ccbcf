using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Converts recorded ETW samples into the same stack model the perf path produces: frames
/// <c>module!symbol</c>, kernel frames marked, the process name first, one weight per sample.
/// </summary>
public static class EtwStackMapper
{
    /// <summary>The symbol of a frame in no known image, and its module in <c>cpu/timeline.csv</c>.</summary>
    public const string UnknownSymbol = "[unknown]";

    /// <summary>
    /// Maps every sample of <paramref name="source"/>. Timeline seconds count from <paramref name="phaseStartUtc"/>;
    /// samples taken between the collector's start and the phase start count in second 0. With <paramref name="workload"/>,
    /// samples of a process named like the server but with another pid (a second instance, another capture's server) are
    /// filed as <see cref="WorkloadProcesses.OtherName"/>: they stay in the all-process stacks, never in the workload's.
    /// </summary>
    public static EtwStackMapping Map(IEtwStackSource source, DateTime phaseStartUtc, EtwSymbolMode mode, bool keepSamples = false, WorkloadProcesses? workload = null)
    {
        ArgumentNullException.ThrowIfNull(source);
        var builder = new EtwStackMappingBuilder(source.StartUtc, phaseStartUtc, mode, keepSamples, workload);
        foreach (var sample in source.Samples())
        {
            builder.Add(sample);
        }

        return builder.Build();
    }

    /// <summary>The bundle frame for one recorded frame.</summary>
    public static Frame ToFrame(EtwFrame raw, EtwSymbolMode mode)
    {
        var module = EtwModuleNames.ModuleName(raw.ModulePath);
        var kind = raw.IsJit ? FrameKind.Jit : EtwModuleNames.IsKernel(raw.ModulePath, raw.Address, raw.IsKernel) ? FrameKind.Kernel : FrameKind.User;
        var symbol = mode == EtwSymbolMode.Resolved ? MethodName(raw.Method, module) : null;
        return new Frame(module, symbol ?? (module.Length > 0 ? module : UnknownSymbol), kind);
    }

    private static string? MethodName(string? method, string module)
    {
        if (string.IsNullOrWhiteSpace(method) || method == "?")
        {
            return null;
        }

        // TraceEvent may qualify names with the module ("sqldk!X"); the frame carries the module already.
        var bang = method.IndexOf('!');
        if (bang > 0 && string.Equals(EtwModuleNames.ModuleName(method[..bang]), module, StringComparison.Ordinal))
        {
            method = method[(bang + 1)..];
        }

        return method;
    }
}
