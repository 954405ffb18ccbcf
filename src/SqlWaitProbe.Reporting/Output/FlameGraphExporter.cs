using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// Writes each phase's CPU flame graph of the server process (and of every process beside it) and the baseline → load
/// differential one, normalised per execution.
/// </summary>
/// <param name="renderer">Draws the flame graphs; null leaves them out, and Data quality says so.</param>
public sealed class FlameGraphExporter(IFlameGraphRenderer? renderer) : IReportExporter<AnalysisResult>
{
    /// <inheritdoc/>
    public string Name => "flame graphs";

    /// <inheritdoc/>
    public void Export(AnalysisResult report, ReportFolder folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(report);
        if (renderer is null)
        {
            folder.Note("flame graphs not rendered: switched off");
            return;
        }

        // The report shows the database server's CPU; the whole machine's samples (perf -a also sees the
        // probe, other tenants, builds) go to a separate file so the embedded graphs stay small and on topic.
        var analysis = report;
        var server = analysis.Manifest.ServerProcess;
        var cpuRenderer = renderer;
        foreach (var phase in analysis.Phases.Where(p => p.Stacks is not null))
        {
            cancellationToken.ThrowIfCancellationRequested();
            folder.Progress.Report($"rendering the flame graph of {phase.Name}");
            var title = analysis.Ledgers.FirstOrDefault(l => l.Phase == phase.Name) is { IsAttach: true } attached
                ? $"{phase.Name}: {attached.WatchedSessions} session(s) watched"
                : $"{phase.Name}: {phase.Phase.Threads} session(s), {Core.Text.Figures.Count(phase.Executions.Count, "execution")}";
            var serverStacks = server.Length == 0 ? phase.Stacks! : phase.Stacks!.OnlyProcess(server);
            cpuRenderer = renderer.WithWeightUnit(phase.Sampling?.WeightUnit ?? "none");
            var svg = cpuRenderer.Render(serverStacks, ReferenceEquals(serverStacks, phase.Stacks) ? title : $"{title} — {server}");
            folder.Write($"flamegraph-{phase.Name}.svg", svg);
            folder.AddFlameGraph(new FigureBlock(phase.Name, phase.Name, svg, Interactive: true));
            if (!ReferenceEquals(serverStacks, phase.Stacks))
            {
                folder.Write($"flamegraph-{phase.Name}-all-processes.svg", cpuRenderer.Render(phase.Stacks!, $"{title} — all processes"));
            }
        }

        var baseline = analysis.Phases.FirstOrDefault(p => p.Name == PhaseNames.Baseline);
        var load = analysis.Load is { } l ? analysis.PhaseOf(l) : null;
        if (baseline?.Stacks is not null && load?.Stacks is not null && !ReferenceEquals(baseline, load))
        {
            folder.Progress.Report("rendering the differential flame graph");
            var before = server.Length == 0 ? baseline.Stacks : baseline.Stacks.OnlyProcess(server);
            var after = server.Length == 0 ? load.Stacks : load.Stacks.OnlyProcess(server);
            var svg = cpuRenderer.RenderDiff(before, Math.Max(1e-9, baseline.Executions.Counted), after, Math.Max(1e-9, load.Executions.Counted),
                $"baseline → {load.Name}, {(server.Length == 0 ? "all processes" : server)} CPU per execution (red grew, blue shrank)");
            folder.Write($"flamegraph-diff-baseline-vs-{load.Name}.svg", svg);
            folder.AddFlameGraph(new FigureBlock("diff", "baseline → load (differential)", svg, Interactive: true));
        }
    }
}
