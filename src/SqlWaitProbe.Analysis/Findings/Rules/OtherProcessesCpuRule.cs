using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>other-processes-cpu</c>: processes that are neither the workload nor the capture took a material share of the
/// machine's CPU during a phase. They compete with the sessions for CPUs, which shows as run queue and lower throughput
/// that the workload itself did not cause.
/// </summary>
public sealed class OtherProcessesCpuRule : CaptureRule
{
    /// <summary>At or above this share of the machine, taken by other processes together, the finding is critical.</summary>
    public const double CriticalShare = 0.25;

    /// <inheritdoc/>
    public override string Id => "other-processes-cpu";

    /// <inheritdoc/>
    /// <remarks>The sessions' run queue, the time neither waits nor CPU explain and the throughput short of ideal are what the other processes caused: said once, here, with their figures.</remarks>
    public override IReadOnlyCollection<string> Subsumes { get; } = ["high-run-queue", "waits-explain-little", "throughput-vs-ideal"];

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        // The machine's capacity is the window × the CPUs: a window cut at its start has none to take a share of.
        if (l.Machine is not { BusyOthers.Count: > 0 } m || m.CapacitySeconds < MinSessionSeconds)
        {
            return null;
        }

        var named = m.BusyOthers.Take(3).ToArray();
        var names = string.Join(", ", named.Select(p => $"{p.Label} {F(p.CpuSeconds)} CPU s"));
        List<string> evidence = [.. named.Select(p => $"{p.Label}: {F(p.CpuSeconds)} CPU s, {Pct(p.MachineShare)} of the machine's {F(m.CapacitySeconds)} CPU s [{m.Source}]")];
        evidence.Add($"all other processes: {F(m.OtherSeconds)} CPU s ({Pct(m.OtherShare)}); the workload's {analysis.Manifest.ServerProcess}: {F(m.WorkloadSeconds)} CPU s"
            + (m.ProbeSeconds is { } probe ? $"; this capture (driver, collectors, perf): {F(probe)} CPU s" : ""));
        var (runnable, source) = HighRunQueueRule.RunnableSeconds(l);
        if (l.SessionSeconds > 0 && runnable > 0)
        {
            evidence.Add($"the sessions waited {Pct(runnable / l.SessionSeconds)} of their time for a CPU [{source}]");
        }

        return Create(m.OtherShare >= CriticalShare ? Severities.Critical : Severities.Warning, l.Phase,
            $"In {l.Phase}, other processes took {Pct(m.OtherShare)} of the machine's CPU: {names}",
            evidence,
            NextStep(named.Select(p => p.Name).Distinct(StringComparer.Ordinal).ToArray()));
    }

    private static string NextStep(string[] names) => names.Length == 1
        ? $"capture again while {names[0]} is not running, or on a machine of its own: these figures include its competition for the CPUs"
        : $"capture again while {string.Join(" and ", names)} are not running, or on a machine of its own: these figures include their competition for the CPUs";
}
