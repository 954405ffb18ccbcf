using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Reporting.Charts;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes every file of a report folder; each file goes to a temporary name first and is moved into place.</summary>
internal sealed class ReportWriter(string folder, AnalysisResult analysis, ReportOptions options, IProgress<string> progress, CancellationToken cancellationToken)
{
    private readonly List<string> _files = [];
    private readonly List<string> _notes = [];

    public IReadOnlyList<string> WriteAll()
    {
        WriteFlameGraphs();
        WriteSpeedscope();
        var charts = WriteCharts();
        cancellationToken.ThrowIfCancellationRequested();
        progress.Report("writing findings.json");
        Write("findings.json", FindingsJson.Serialize(analysis, _notes));
        progress.Report("writing report.html");
        Write("report.html", HtmlReport.Render(analysis, charts, FlameGraphs, _notes));
        progress.Report("writing report.md");
        var relative = _files.Select(f => Path.GetRelativePath(folder, f).Replace('\\', '/')).Append("report.md").Order(StringComparer.Ordinal).ToList();
        Write("report.md", MarkdownReport.Render(analysis, relative, _notes));
        return [.. _files.OrderBy(f => Path.GetFileName(f) switch { "report.md" => 0, "report.html" => 1, "findings.json" => 2, _ => 3 })];
    }

    /// <summary>Flame graph SVG text by phase name, and the differential one under "diff".</summary>
    public Dictionary<string, string> FlameGraphs { get; } = new(StringComparer.Ordinal);

    private void WriteFlameGraphs()
    {
        WriteOffCpu(options.FlameGraphs);
        if (options.FlameGraphs is not { } renderer)
        {
            _notes.Add("flame graphs not rendered: switched off");
            return;
        }

        // The report shows the database server's CPU; the whole machine's samples (perf -a also sees the
        // probe, other tenants, builds) go to a separate file so the embedded graphs stay small and on topic.
        var server = analysis.Manifest.ServerProcess;
        var cpuRenderer = renderer;
        foreach (var phase in analysis.Phases.Where(p => p.Stacks is not null))
        {
            cancellationToken.ThrowIfCancellationRequested();
            progress.Report($"rendering the flame graph of {phase.Name}");
            var title = analysis.Ledgers.FirstOrDefault(l => l.Phase == phase.Name) is { IsAttach: true } attached
                ? $"{phase.Name}: {attached.WatchedSessions} session(s) watched"
                : $"{phase.Name}: {phase.Phase.Threads} session(s), {phase.Executions.Count} executions";
            var serverStacks = server.Length == 0 ? phase.Stacks! : phase.Stacks!.OnlyProcess(server);
            renderer = cpuRenderer.WithWeightUnit(phase.Sampling?.WeightUnit ?? "none");
            var svg = renderer.Render(serverStacks, ReferenceEquals(serverStacks, phase.Stacks) ? title : $"{title} — {server}");
            FlameGraphs[phase.Name] = svg;
            Write($"flamegraph-{phase.Name}.svg", svg);
            if (!ReferenceEquals(serverStacks, phase.Stacks))
            {
                Write($"flamegraph-{phase.Name}-all-processes.svg", renderer.Render(phase.Stacks!, $"{title} — all processes"));
            }
        }

        var baseline = analysis.Phases.FirstOrDefault(p => p.Name == PhaseNames.Baseline);
        var load = analysis.Load is { } l ? analysis.PhaseOf(l) : null;
        if (baseline?.Stacks is not null && load?.Stacks is not null && !ReferenceEquals(baseline, load))
        {
            progress.Report("rendering the differential flame graph");
            var before = server.Length == 0 ? baseline.Stacks : baseline.Stacks.OnlyProcess(server);
            var after = server.Length == 0 ? load.Stacks : load.Stacks.OnlyProcess(server);
            var svg = renderer.RenderDiff(before, Math.Max(1, baseline.Executions.Count), after, Math.Max(1, load.Executions.Count),
                $"baseline → {load.Name}, {(server.Length == 0 ? "all processes" : server)} CPU per execution (red grew, blue shrank)");
            FlameGraphs["diff"] = svg;
            Write($"flamegraph-diff-baseline-vs-{load.Name}.svg", svg);
        }
    }

    private void WriteOffCpu(IFlameGraphRenderer? renderer)
    {
        // Off-CPU weights are microseconds blocked inside the sessions' executions, not samples.
        foreach (var l in analysis.Ledgers.Where(l => l.OffCpu is { Stacks.Count: > 0 }))
        {
            cancellationToken.ThrowIfCancellationRequested();
            progress.Report($"rendering the off-CPU flame graph of {l.Phase}");
            var folded = string.Concat(l.OffCpu!.FoldedMicroseconds().Select(line => line + "\n"));
            Write($"offcpu-{l.Phase}.folded", folded);
            if (renderer is null)
            {
                continue;
            }

            var profile = new Core.Stacks.StackProfile();
            Core.Stacks.FoldedStackFormat.ReadInto(new StringReader(folded), $"offcpu-{l.Phase}.folded", profile, firstFrameIsProcess: true);
            var svg = renderer.WithWeightUnit("microseconds").Render(profile, $"{l.Phase}: off-CPU, µs blocked inside the executions ({l.OffCpu.Source}) — widths are time, not samples");
            FlameGraphs["offcpu-" + l.Phase] = svg;
            Write($"flamegraph-offcpu-{l.Phase}.svg", svg);
        }
    }

    // Each phase's stacks, every process, for speedscope.app and any tool that reads its format.
    private void WriteSpeedscope()
    {
        foreach (var phase in analysis.Phases.Where(p => p.Stacks is not null))
        {
            cancellationToken.ThrowIfCancellationRequested();
            progress.Report($"writing {phase.Name}.speedscope.json");
            using var json = new MemoryStream();
            // The weights keep their unit: perf's are nanoseconds of cpu-clock, ETW's sample counts.
            var file = Speedscope.SpeedscopeWriter.Convert(phase.Stacks!, $"{analysis.Manifest.Workload} {phase.Name}");
            foreach (var profile in file.Profiles)
            {
                profile.Unit = phase.Sampling?.WeightUnit ?? "none";
            }

            Speedscope.SpeedscopeWriter.Write(file, json);
            Write($"{phase.Name}.speedscope.json", json.ToArray());
        }
    }

    private IReadOnlyList<(string Name, string Title, string Svg)> WriteCharts()
    {
        progress.Report("drawing charts");
        var charts = ReportCharts.Build(analysis);
        if (!options.Png && charts.Count > 0)
        {
            _notes.Add("charts are SVG only: PNG copies were switched off");
        }

        foreach (var chart in charts)
        {
            cancellationToken.ThrowIfCancellationRequested();
            Write("charts/" + chart.Name + ".svg", chart.Svg);
            if (options.Png)
            {
                Write("charts/" + chart.Name + ".png", chart.Png());
            }
        }

        return charts.Select(c => (c.Name, c.Title, c.Svg)).ToArray();
    }

    private void Write(string relative, byte[] bytes)
    {
        // Names come from the bundle (phase names): resolved and checked to stay inside the report folder.
        var path = BundleNames.Resolve(folder, relative, "report file");
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        Core.Files.AtomicFile.WriteAllBytes(path, bytes);
        _files.Add(path);
    }

    private void Write(string relative, string text)
    {
        // Names come from the bundle (phase names): resolved and checked to stay inside the report folder.
        var path = BundleNames.Resolve(folder, relative, "report file");
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        Core.Files.AtomicFile.WriteAllText(path, text);
        _files.Add(path);
    }
}
