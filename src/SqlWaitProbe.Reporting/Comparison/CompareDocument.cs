using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Reporting.Output;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>
/// Builds the one <see cref="ReportDocument"/> of a comparison that compare.html and compare.md render: the captures,
/// findings, configuration, each phase's tables, scalability, the figures, data quality and method.
/// </summary>
public static class CompareDocument
{
    /// <summary>
    /// The report of <paramref name="r"/>; <paramref name="notes"/> are the report's own Data quality lines;
    /// <paramref name="charts"/> and <paramref name="flameGraphs"/> are shown inline where a format can.
    /// </summary>
    public static ReportDocument Build(ComparisonResult r, IReadOnlyList<string> notes, IReadOnlyList<FigureBlock> charts, IReadOnlyList<FigureBlock> flameGraphs)
    {
        ArgumentNullException.ThrowIfNull(r);
        var (capHeaders, capRows) = CompareTables.Captures(r);
        var sections = new List<ReportSection>
        {
            new("findings", "Findings", 2, r.Findings.Count == 0 ? [ReportBlock.Paragraph("No rule fired.")] : [.. r.Findings.Select(ReportBlock.Of)]),
        };
        if (r.ConfigurationDifferences.Count == 0)
        {
            sections.Add(new("configuration", "Configuration", 2, [ReportBlock.Paragraph("The recorded configurations and capture options do not differ.")]));
        }
        else
        {
            var (h, rows) = CompareTables.Configuration(r);
            sections.Add(new("configuration", "Configuration", 2, [ReportBlock.Table(h, rows)]));
        }

        foreach (var p in r.Phases)
        {
            sections.Add(new("phase", $"Phase {p.Name}", 2, []));
            foreach (var (heading, what, rows) in CompareTables.Of(p))
            {
                ReportBlock block = rows.Count == 0 || rows.All(x => x.Values.All(v => v is null))
                    ? ReportBlock.Paragraph(CompareTables.Empty(heading))
                    : ReportBlock.Table(CompareTables.Headers(what, r.Labels), rows.Select(x => (IReadOnlyList<string>)CompareTables.Cells(x, r.Captures.Count)), CompareTables.NumericColumns(r.Captures.Count));
                sections.Add(new("phase-table", heading, 3, [block]));
            }
        }

        if (r.Statements.Count > 0)
        {
            sections.Add(new("statements", "Statements", 2, [ReportBlock.Paragraph("Matched across the captures by the server's statement id, then by text; share = of the sampled session time, ms = elapsed per execution of the statement (the server's counters); plan changes are against the first capture with a plan.")]));
            foreach (var phase in r.Statements.GroupBy(s => s.Phase))
            {
                var headers = new List<string> { "statement", "matched by" };
                foreach (var label in r.Labels)
                {
                    headers.Add($"{label} share");
                    headers.Add($"{label} ms");
                    headers.Add($"{label} spill pages");
                }

                headers.Add("plan changes");
                var numeric = Enumerable.Range(2, r.Labels.Count * 3).ToArray();
                sections.Add(new("statements-phase", $"Statements in {phase.Key}", 3,
                [
                    ReportBlock.Table(headers, phase.Select(s => (IReadOnlyList<string>)
                    [
                        Output.StatementSection.Short(s.Text), s.MatchedBy,
                        .. s.Rows.SelectMany(row => row is null
                            ? new[] { "—", "—", "—" }
                            : [Core.Text.Figures.Pct(row.SessionShare), ComparisonJson.ElapsedPerExecution(row) is { } ms ? Core.Text.Figures.F(ms) : "n/a", row.Stats?.SpillPages is { } sp ? Core.Text.Figures.F(sp) : "n/a"]),
                        s.PlanChanges.Count == 0 ? "" : string.Join(" | ", s.PlanChanges),
                    ]), numeric),
                ]));
            }
        }

        if (r.Scalability.Count > 0)
        {
            var (h, rows) = CompareTables.Scalability(r);
            sections.Add(new("scalability", "Scalability across the captures", 2, [ReportBlock.Table(h, rows, 1, 2, 3, 4, 5)]));
        }

        if (charts.Count > 0)
        {
            sections.Add(new("charts", "Charts", 2, charts) { InlineFiguresOnly = true });
        }

        sections.Add(new("flame-graphs", "Differential flame graphs", 2, flameGraphs.Count == 0
            ? [ReportBlock.Paragraph("Not drawn: the compared phases lack CPU stacks in at least one capture.")]
            : [ReportBlock.Paragraph("Normalised per execution: frame widths from the later capture, red grew, blue shrank. Click a frame to zoom; the search box highlights matching frames."), .. flameGraphs])
            { InlineFiguresOnly = true });
        var quality = DataQuality(r, notes).ToArray();
        sections.Add(new("data-quality", "Data quality", 2, [ReportBlock.List(quality.Length == 0 ? ["every collector of every capture reported ok"] : quality)]));
        sections.Add(new("method", "Method", 2, [ReportBlock.Paragraph(CompareTables.Method)]));
        return new ReportDocument(
            "probe compare: " + string.Join(" vs ", r.Labels),
            [.. r.Warnings.Select(w => "Warning: " + w)],
            [ReportBlock.Table(capHeaders, capRows), ReportBlock.Paragraph($"Every figure is per execution; every Δ is against the first capture, {r.Labels[0]}.")],
            sections);
    }

    /// <summary>Each capture's Data quality lines under its label, then the report's own.</summary>
    public static IEnumerable<string> DataQuality(ComparisonResult r, IReadOnlyList<string> notes)
    {
        ArgumentNullException.ThrowIfNull(r);
        return r.Captures.SelectMany(c => c.Analysis.DataQuality.Select(n => $"{c.Label}: {n}")).Concat(notes);
    }
}
