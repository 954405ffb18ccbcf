using SqlWaitProbe.Windows.OffCpu;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>What turning a phase's .etl into the bundle's stack files wrote.</summary>
/// <param name="Mapping">The module-level mapping (for choosing modules to resolve).</param>
/// <param name="Facts">What <c>cpu/sampling.json</c> says.</param>
/// <param name="OffCpu">What the off-CPU files hold, or null when they were not written.</param>
/// <param name="OffCpuProblem">Why they were not written, when off-CPU stacks were asked for; else null.</param>
public sealed record EtlConversionResult(EtwStackMapping Mapping, EtwSamplingFacts Facts, EtwOffCpuSummary? OffCpu, string? OffCpuProblem);
