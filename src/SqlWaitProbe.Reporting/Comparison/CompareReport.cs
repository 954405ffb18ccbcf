using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Reporting.Charts;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>Writes a comparison's folder: compare.md, compare.html, comparison.json, differential flame graphs and charts.</summary>
public static class CompareReport
{
    /// <summary>Writes every file of <paramref name="r"/> into <paramref name="folder"/>; returns their paths, compare.md, compare.html and comparison.json first.</summary>
    public static IReadOnlyList<string> Write(ComparisonResult r, string folder, ReportOptions options, IProgress<string> progress, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(folder);
        var files = new List<string>();
        var notes = new List<string>();
        void Put(string relative, string text)
        {
            var path = Path.Combine(folder, relative);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            AtomicFile.WriteAllText(path, text);
            files.Add(path);
        }

        var flames = new List<(string Title, string Svg)>();
        if (options.FlameGraphs is { } renderer)
        {
            foreach (var p in r.Phases)
            {
                for (var i = 1; i < p.Sides.Count; i++)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    var (a, b) = (p.Sides[0], p.Sides[i]);
                    if (a.Data.Stacks is null || b.Data.Stacks is null)
                    {
                        notes.Add($"{p.Name}: no differential flame graph of {a.Label} → {b.Label}: {(a.Data.Stacks is null ? a.Label : b.Label)} has no CPU stacks");
                        continue;
                    }

                    progress.Report($"rendering the differential flame graph of {p.Name}, {a.Label} → {b.Label}");
                    var (before, after) = (Server(r, 0, a), Server(r, i, b));
                    var title = $"{p.Name}: {a.Label} → {b.Label}, CPU per execution (red grew, blue shrank)";
                    var svg = renderer.RenderDiff(before, Math.Max(1, a.Ledger.Executions), after, Math.Max(1, b.Ledger.Executions), title);
                    Put($"flamegraph-diff-{FileNames.Slug(p.Name)}-{FileNames.Slug(a.Label)}-vs-{FileNames.Slug(b.Label)}.svg", svg);
                    flames.Add((title, svg));
                }
            }
        }
        else
        {
            notes.Add("flame graphs not rendered: switched off");
        }

        progress.Report("drawing charts");
        var charts = CompareCharts.Build(r);
        foreach (var chart in charts)
        {
            cancellationToken.ThrowIfCancellationRequested();
            Put("charts/" + chart.Name + ".svg", chart.Svg);
            if (options.Png)
            {
                var path = Path.Combine(folder, "charts", chart.Name + ".png");
                var png = chart.Png();
                AtomicFile.Write(path, stream => stream.Write(png));
                files.Add(path);
            }
        }

        progress.Report("writing comparison.json, compare.html and compare.md");
        var flameFiles = files.Where(f => Path.GetFileName(f).StartsWith("flamegraph-diff-", StringComparison.Ordinal)).Select(Path.GetFileName).ToArray();
        Put("comparison.json", CompareJson.Serialize(r, flameFiles!, notes));
        Put("compare.html", CompareHtml.Render(r, charts.Select(c => (c.Name, c.Title, c.Svg)).ToArray(), flames, notes));
        var relative = files.Select(f => Path.GetRelativePath(folder, f).Replace('\\', '/')).Append("compare.md").Order(StringComparer.Ordinal).ToArray();
        Put("compare.md", CompareMarkdown.Render(r, relative, notes));
        return [.. files.OrderBy(f => Path.GetFileName(f) switch { "compare.md" => 0, "compare.html" => 1, "comparison.json" => 2, _ => 3 })];
    }

    /// <summary>The server process's stacks of a capture's phase (perf -a also sees the probe and other tenants).</summary>
    private static Core.Stacks.StackProfile Server(ComparisonResult r, int index, PhaseSide side)
    {
        var server = r.Captures[index].Analysis.Manifest.ServerProcess;
        return server.Length == 0 ? side.Data.Stacks! : side.Data.Stacks!.OnlyProcess(server);
    }
}
