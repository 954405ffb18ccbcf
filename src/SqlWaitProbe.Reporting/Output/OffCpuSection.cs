using System.Globalization;
using SqlWaitProbe.Analysis.Ledger;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>The "blocked time by top stack" table of a phase, shared by the Markdown and HTML reports.</summary>
internal static class OffCpuSection
{
    public static readonly string[] Headers = ["where the sessions were blocked", "blocked ms/exec", "in database waits ms/exec", "wake-up latency ms/exec", "outside ms/exec", "share of session time", "switches"];

    public static string Heading(PhaseLedger l) =>
        $"Off-CPU in {l.Phase}: blocked time by top stack ({l.OffCpu!.Source}; report/offcpu-{l.Phase}.folded, flamegraph-offcpu-{l.Phase}.svg)";

    public static IEnumerable<string[]> Rows(PhaseLedger l)
    {
        var off = l.OffCpu!;
        var executions = Math.Max(1e-9, l.CountedExecutions);
        foreach (var s in off.Stacks.Take(10))
        {
            yield return [s.Label, F(s.BlockedMs / executions), F(s.InWaitsMs / executions), F(s.WakeLatencyMs / executions), F(s.OutsideMs / executions),
                l.SessionSeconds > 0 ? Core.Text.Figures.Pct(s.OutsideMs / 1000 / l.SessionSeconds) : "n/a", s.Switches.ToString(CultureInfo.InvariantCulture)];
        }

        if (off.Stacks.Count > 10)
        {
            var rest = off.Stacks.Skip(10).ToArray();
            yield return [$"{rest.Length} other stacks", F(rest.Sum(s => s.BlockedMs) / executions), F(rest.Sum(s => s.InWaitsMs) / executions), F(rest.Sum(s => s.WakeLatencyMs) / executions),
                F(rest.Sum(s => s.OutsideMs) / executions), l.SessionSeconds > 0 ? Core.Text.Figures.Pct(rest.Sum(s => s.OutsideMs) / 1000 / l.SessionSeconds) : "n/a",
                rest.Sum(s => s.Switches).ToString(CultureInfo.InvariantCulture)];
        }

        yield return ["preempted (runnable: part of the run queue)", F(off.PreemptedMs / executions), "", "", "", "", ""];
    }

    private static string F(double v) => Core.Text.Figures.F(v);
}
