using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Reporting.Output;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>The tables the compare reports share: headers and cells of each side-by-side table, for Markdown and HTML alike.</summary>
internal static class CompareTables
{
    /// <summary>One table of a compared phase: its heading, first column's name, rows and the unit of its values.</summary>
    public static IEnumerable<(string Heading, string What, IReadOnlyList<DeltaRow> Rows)> Of(PhaseComparison p)
    {
        yield return ("Time ledger, ms per execution", "part", p.Ledger);
        yield return ("Throughput and latency", "figure", p.Throughput);
        yield return ("Waits, ms per execution", "wait type", p.Waits);
        yield return ("Latches, wait ms per execution", "latch class", p.Latches);
        yield return ("Spinlocks, spins per execution", "spinlock", p.Spinlocks);
        yield return ("XE pages per execution, by memory clerk", "clerk", p.XePages);
        yield return ("OS counters: server CPU, user against kernel (privileged)", "figure", p.OsCpu);
        yield return ("Modules of the server process, CPU ms per execution", "module", p.Modules);
        yield return ("Stack tags, CPU ms per execution", "stack tag", p.Tags);
    }

    /// <summary>Headers: the row name, each capture's value, then Δ of every other capture against the first, then the source.</summary>
    public static string[] Headers(string what, IReadOnlyList<string> labels) =>
        [what, .. labels, .. labels.Skip(1).Select(l => $"Δ {l}"), "source"];

    /// <summary>The cells of one row, as <see cref="Headers"/> orders them.</summary>
    public static string[] Cells(DeltaRow row, int captures) =>
    [
        row.Name + (row.Kernel ? " (kernel)" : ""),
        .. row.Values.Select(v => v is { } x ? F(x) : "not captured"),
        .. Enumerable.Range(1, captures - 1).Select(i => row.Delta(i) is { } d ? Signed(d) : "—"),
        row.Source,
    ];

    /// <summary>Indexes of the numeric columns for <paramref name="captures"/> captures.</summary>
    public static int[] NumericColumns(int captures) => [.. Enumerable.Range(1, 2 * captures - 1)];

    /// <summary>What a table says when no capture recorded its figures.</summary>
    public static string Empty(string heading) => heading switch
    {
        _ when heading.StartsWith("Latches", StringComparison.Ordinal) || heading.StartsWith("Spinlocks", StringComparison.Ordinal) || heading.StartsWith("XE", StringComparison.Ordinal)
            => "not captured (SQL Server DMVs and --xe pages only)",
        _ => "not captured in these bundles",
    };

    /// <summary>The captures table: one row per capture.</summary>
    public static (string[] Headers, IEnumerable<string[]> Rows) Captures(ComparisonResult r) =>
    (
        ["label", "bundle", "engine", "workload", "server", "machine", "captured (UTC)", "status"],
        r.Captures.Select(c =>
        {
            var m = c.Analysis.Manifest;
            return new[]
            {
                c.Label, c.Source, m.Engine, m.Workload, m.ServerVersion, $"{m.Host}, {m.Os}, {m.LogicalCpus} CPUs",
                $"{m.StartUtc:yyyy-MM-ddTHH:mm:ssZ} – {m.EndUtc:yyyy-MM-ddTHH:mm:ssZ}", m.Status,
            };
        })
    );

    /// <summary>The configuration differences table.</summary>
    public static (string[] Headers, IEnumerable<string[]> Rows) Configuration(ComparisonResult r) =>
    (
        ["setting", .. r.Labels, "source"],
        r.ConfigurationDifferences.Select(d => (string[])[d.Setting, .. d.Values.Select(v => v ?? "not recorded"), d.Source])
    );

    /// <summary>The scalability table.</summary>
    public static (string[] Headers, IEnumerable<string[]> Rows) Scalability(ComparisonResult r) =>
    (
        ["capture", "sessions", "executions/s", "ms/exec", "ideal executions/s", "vs ideal"],
        r.Scalability.Select(s => new[] { s.Label, s.Threads.ToString(System.Globalization.CultureInfo.InvariantCulture), F(s.ExecutionsPerSecond), F(s.MsPerExecution), F(s.IdealExecutionsPerSecond), Pct(s.VsIdeal) })
    );

    /// <summary>The method paragraph.</summary>
    public const string Method =
        "Each bundle is analysed exactly as probe analyze does (time ledger, modules, stack tags, waits), and the phases the captures share are set side by side. "
        + "Every figure is per execution (ms, pages or spins ÷ the phase's executions), so captures of different lengths and session counts compare; every Δ is against the first capture. "
        + "Module and tag CPU = exclusive share of the server process's samples × ledger CPU ÷ executions. "
        + "The differential flame graph takes frame widths from the later capture and colours each frame by the change of its samples per execution: red grew, blue shrank. "
        + "A finding's share of the change divides a module's Δ by the Δ of session time per execution; 'waits explain' divides the Δ of waits by the same.";
}
