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
        if (l is null || l.Modules.Count == 0 || !HasSessionTimeToJudge(l))
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

        // A module's own frames often have no symbol (Debian's libcrypto): the module alone does not say which work it
        // does. The heaviest call path into it, named by its deepest named frames, and the heaviest named function that
        // leads into it do (pgcrypto.so!px_find_digest → libcrypto.so.3!EVP_MD_fetch: OpenSSL's algorithm fetch).
        var path = analysis.CallPathsModule == top.Module && ReferenceEquals(analysis.Load, l)
            ? analysis.CallPathsIntoFastest.FirstOrDefault(p => p.NamedAs is not null)
            : null;
        var title = $"In {l.Phase}, {top.Module}{(top.Kernel ? " (kernel)" : "")} runs {Pct(top.ExclusiveShare)} of {ProcessName(analysis)} CPU ({F(l.CpuFor(top.ExclusiveShare, top.CpuMsPerExecution))}{unit})";
        var focus = $"{top.Module}!*";
        if (path is not null)
        {
            title += $"; its heaviest call path, {Pct(path.Share)} of the samples, is named by {path.Naming}";
            evidence.Add($"heaviest call path into {top.Module}: {Pct(path.Share)} of samples, {string.Join(" → ", path.Compact().TakeLast(4))} [cpu/stacks.folded, call paths]");
            focus = path.NamedAs!;
        }
        else if (l.HotFunctions.FirstOrDefault(h => h.Module == top.Module || h.Callees.Any(c => c.Function.StartsWith(top.Module + "!", StringComparison.Ordinal))) is { } hot)
        {
            title += $"; the heaviest named function in or into it, callees included, is {hot.Function} ({Pct(hot.InclusiveShare)})";
            focus = hot.Function;
        }

        yield return Create(Severities.Info, l.Phase, title, [.. evidence],
            $"open flamegraph-{l.Phase}.svg at {focus.TrimEnd('*').TrimEnd('!')} for the functions and their callers, or run probe analyze with --focus '{focus}' for its callers and callees");
    }
}
