using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>cpu-top-module</c>: where the server's CPU goes in the load phase (or the only phase), by module.</summary>
public sealed class CpuTopModuleRule : CaptureRule
{
    /// <inheritdoc/>
    public override string Id => "cpu-top-module";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        var l = analysis.Load ?? (analysis.Ledgers.Count == 1 ? analysis.Ledgers[0] : null);
        if (l is null || l.Modules.Count == 0)
        {
            yield break;
        }

        var top = l.Modules.OrderByDescending(m => m.ExclusiveShare).First();
        var unit = l.IsAttach ? " ms in total" : " ms per execution";
        var evidence = l.Modules.OrderByDescending(m => m.ExclusiveShare).Take(3)
            .Select(m => $"{m.Module}{(m.Kernel ? " (kernel)" : "")}: {Pct(m.ExclusiveShare)} of samples, {F(l.CpuFor(m.ExclusiveShare, m.CpuMsPerExecution))}{unit} [cpu/stacks.folded exclusive share × {l.CpuSource}]")
            .ToList();
        if (l.Tags.FirstOrDefault(t => t.Tag != "[other]") is { } tag)
        {
            evidence.Add($"heaviest stack tag: {tag.Tag}, {Pct(tag.Share)} of samples [cpu/stacks.folded, stack tags]");
        }

        yield return Create(Severities.Info, l.Phase,
            $"In {l.Phase}, {top.Module}{(top.Kernel ? " (kernel)" : "")} runs {Pct(top.ExclusiveShare)} of {ProcessName(analysis)} CPU ({F(l.CpuFor(top.ExclusiveShare, top.CpuMsPerExecution))}{unit})",
            [.. evidence],
            $"open flamegraph-{l.Phase}.svg at {top.Module} for the functions and their callers, or run probe analyze with --focus '{top.Module}!*' for its callers and callees");
    }
}
