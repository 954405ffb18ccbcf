using SqlWaitProbe.Analysis.Stacks;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>stacks-incomplete</c>: call paths are too short to trust (frame pointers stop in libraries built without them),
/// for the phase whose stacks are least complete.
/// </summary>
public sealed class StacksIncompleteRule : CaptureRule
{
    /// <summary>
    /// A perf capture without DWARF unwinding whose server stacks stop short of a thread's first function for at
    /// least this share of their samples fires the rule (frame pointers stop in libraries built without them, such as
    /// Debian's libcrypto and glibc: 36 % of a hashbytes capture's postgres samples).
    /// </summary>
    public const double IncompleteShare = 0.10;

    /// <inheritdoc/>
    public override string Id => "stacks-incomplete";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        var server = analysis.Manifest.ServerProcess;
        var worst = analysis.Phases
            .Where(p => p.Stacks is not null && p.Sampling is { Source: "perf" } s && s.CallGraph != "dwarf")
            .Select(p => (Phase: p, Quality: StackQuality.Measure(server.Length == 0 ? p.Stacks! : p.Stacks!.OnlyProcess(server))))
            .Where(q => q.Quality.TotalWeight > 0)
            .OrderByDescending(q => q.Quality.IncompleteShare)
            .FirstOrDefault();
        if (worst.Phase is null || worst.Quality.IncompleteShare < IncompleteShare)
        {
            yield break;
        }

        var (p, quality) = worst;
        var who = server.Length == 0 ? "the sampled processes" : server;
        var how = p.Sampling!.CallGraph ?? "fp";
        // With auto, the reason says why this capture did not use dwarf (its data would not have fitted the cap).
        var why = p.Sampling.CallGraphReason is { } reason ? $" ({reason})" : "";
        yield return Create(Severities.Warning, p.Name,
            $"In {p.Name}, {Pct(quality.IncompleteShare)} of {who}'s CPU samples have stacks that stop short of a thread's first function, so call paths lose their callers: capture again with --call-graph dwarf",
            [$"stacks recorded with --call-graph {how}{why}: {StackQuality.Reach(quality.IncompleteShare)} reach a thread's first function, {Pct(quality.IncompleteShare)} stop short [cpu/stacks.folded, cpu/sampling.json]",
             $"frame-pointer walks stop in libraries built without frame pointers (Debian's libcrypto and glibc); --call-graph dwarf unwinds them, at about 23 times the perf data (docs/performance.md); this finding appears from {Pct(IncompleteShare)} of the samples"],
            "capture again with --call-graph dwarf (and a --max-perf-mb that fits its data) to see whole call paths",
            dataQuality: true);
    }
}
