using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// Writes each phase's off-CPU stacks (<c>offcpu-PHASE.folded</c>, µs blocked inside the executions) and, with a
/// renderer, their flame graph.
/// </summary>
/// <param name="renderer">Draws the flame graphs; null writes the folded files only.</param>
public sealed class OffCpuFlameGraphExporter(IFlameGraphRenderer? renderer) : IReportExporter<AnalysisResult>
{
    /// <inheritdoc/>
    public string Name => "off-CPU flame graphs";

    /// <inheritdoc/>
    public void Export(AnalysisResult report, ReportFolder folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(report);
        // Off-CPU weights are microseconds blocked inside the sessions' executions, not samples.
        foreach (var l in report.Ledgers.Where(l => l.OffCpu is { Stacks.Count: > 0 }))
        {
            cancellationToken.ThrowIfCancellationRequested();
            folder.Progress.Report($"rendering the off-CPU flame graph of {l.Phase}");
            var folded = string.Concat(l.OffCpu!.FoldedMicroseconds().Select(line => line + "\n"));
            folder.Write($"offcpu-{l.Phase}.folded", folded);
            if (renderer is null)
            {
                continue;
            }

            var profile = new StackProfile();
            FoldedStackFormat.ReadInto(new StringReader(folded), $"offcpu-{l.Phase}.folded", profile, firstFrameIsProcess: true);
            var svg = renderer.WithWeightUnit("microseconds").Render(profile, $"{l.Phase}: off-CPU, µs blocked inside the executions ({l.OffCpu.Source}) — widths are time, not samples");
            folder.Write($"flamegraph-offcpu-{l.Phase}.svg", svg);
            folder.AddFlameGraph(new FigureBlock("offcpu-" + l.Phase, $"{l.Phase}: off-CPU (blocked µs)", svg, Interactive: true));
        }
    }
}
