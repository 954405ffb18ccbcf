using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Reporting.Output;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>
/// Writes a differential flame graph per compared phase and later capture, normalised per execution: frame widths from
/// the later capture, red grew, blue shrank.
/// </summary>
/// <param name="renderer">Draws the flame graphs; null leaves them out, and Data quality says so.</param>
public sealed class DiffFlameGraphExporter(IFlameGraphRenderer? renderer) : IReportExporter<ComparisonResult>
{
    /// <inheritdoc/>
    public string Name => "differential flame graphs";

    /// <inheritdoc/>
    public void Export(ComparisonResult report, ReportFolder folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(report);
        if (renderer is null)
        {
            folder.Note("flame graphs not rendered: switched off");
            return;
        }

        foreach (var p in report.Phases)
        {
            for (var i = 1; i < p.Sides.Count; i++)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var (a, b) = (p.Sides[0], p.Sides[i]);
                if (a.Data.Stacks is null || b.Data.Stacks is null)
                {
                    folder.Note($"{p.Name}: no differential flame graph of {a.Label} → {b.Label}: {(a.Data.Stacks is null ? a.Label : b.Label)} has no CPU stacks");
                    continue;
                }

                folder.Progress.Report($"rendering the differential flame graph of {p.Name}, {a.Label} → {b.Label}");
                var title = $"{p.Name}: {a.Label} → {b.Label}, CPU per execution (red grew, blue shrank)";
                var svg = renderer.RenderDiff(Server(report, 0, a), Math.Max(1e-9, a.Ledger.CountedExecutions), Server(report, i, b), Math.Max(1e-9, b.Ledger.CountedExecutions), title);
                folder.Write($"flamegraph-diff-{FileNames.Slug(p.Name)}-{FileNames.Slug(a.Label)}-vs-{FileNames.Slug(b.Label)}.svg", svg);
                folder.AddFlameGraph(new FigureBlock(title, title, svg, Interactive: true));
            }
        }
    }

    /// <summary>The server process's stacks of a capture's phase (perf -a also sees the probe and other tenants).</summary>
    private static StackProfile Server(ComparisonResult r, int index, PhaseSide side)
    {
        var server = r.Captures[index].Analysis.Manifest.ServerProcess;
        return server.Length == 0 ? side.Data.Stacks! : side.Data.Stacks!.OnlyProcess(server);
    }
}
