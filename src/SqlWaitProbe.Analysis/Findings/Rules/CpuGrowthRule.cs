using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>cpu-growth</c>: each execution costs materially more CPU under load than in the baseline.</summary>
public sealed class CpuGrowthRule : CaptureRule
{
    /// <summary>Per-execution CPU at or above this multiple of the baseline's fires the rule.</summary>
    public const double GrowthRatio = 2.0;

    /// <summary>At or above this multiple the finding is critical.</summary>
    public const double CriticalRatio = 5.0;

    /// <inheritdoc/>
    public override string Id => "cpu-growth";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        if (analysis.Baseline is not { } b || analysis.Load is not { } load || ReferenceEquals(b, load)
            || b.CpuMsPerExecution <= 0 || load.CpuMsPerExecution / b.CpuMsPerExecution < GrowthRatio)
        {
            yield break;
        }

        var ratio = load.CpuMsPerExecution / b.CpuMsPerExecution;
        var evidence = new List<string> { $"CPU per execution {F(b.CpuMsPerExecution)} ms in baseline → {F(load.CpuMsPerExecution)} ms in {load.Phase} [{load.CpuSource} ÷ executions]" };
        var top = analysis.Growth.FirstOrDefault();
        var title = $"Per-execution CPU grew {F(ratio)}× from baseline to {load.Phase}";
        var named = top is not null && top.ShareOfGrowth is > 0;
        if (named)
        {
            title += $"; {top!.Module} accounts for {Pct(top.ShareOfGrowth!.Value)} of the growth";
            evidence.AddRange(analysis.Growth.Take(3).Select(g => $"{g.Module}{(g.Kernel ? " (kernel)" : "")}: {F(g.BaselineMsPerExecution)} → {F(g.LoadMsPerExecution)} ms per execution, {(g.ShareOfGrowth is { } s ? Pct(s) : "no share")} of the growth [cpu/stacks.folded module shares × CPU]"));
        }

        yield return Create(ratio >= CriticalRatio ? Severities.Critical : Severities.Warning, load.Phase, title, evidence,
            named
                ? $"follow the call paths into {top!.Module} and the differential flame graph (red grew) to the code that costs more under load; a sweep (--threads 1,2,4,…) shows where it starts"
                : "capture CPU stacks in both phases (perf or ETW) to see which module's CPU grew; the differential flame graph then shows the frames");
    }
}
