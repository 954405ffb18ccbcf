using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>The result of mapping recorded ETW samples into the bundle's stack model.</summary>
public sealed class EtwStackMapping
{
    public EtwStackMapping(
        StackProfile profile,
        IReadOnlyList<StackSample> samples,
        IReadOnlyList<EtwTimelineRow> timeline,
        long sampleCount,
        IReadOnlyDictionary<(string Process, string Module), long> inclusiveModuleSamples,
        IReadOnlyDictionary<string, string> moduleFiles)
    {
        Profile = profile;
        Samples = samples;
        Timeline = timeline;
        SampleCount = sampleCount;
        InclusiveModuleSamples = inclusiveModuleSamples;
        ModuleFiles = moduleFiles;
    }

    /// <summary>Weight per (process, stack); what <c>cpu/stacks.folded</c> holds.</summary>
    public StackProfile Profile { get; }

    /// <summary>Each sample with its stack id in <see cref="Profile"/>; empty unless samples were kept.</summary>
    public IReadOnlyList<StackSample> Samples { get; }

    /// <summary>Leaf-module weight per second, sorted by second, process, module.</summary>
    public IReadOnlyList<EtwTimelineRow> Timeline { get; }

    /// <summary>Number of samples mapped.</summary>
    public long SampleCount { get; }

    /// <summary>Samples with the module anywhere on the stack, per process and module.</summary>
    public IReadOnlyDictionary<(string Process, string Module), long> InclusiveModuleSamples { get; }

    /// <summary>Module name → image file name as traced (<c>sqldk</c> → <c>sqldk.dll</c>), for messages and symbol lookup.</summary>
    public IReadOnlyDictionary<string, string> ModuleFiles { get; }
}
