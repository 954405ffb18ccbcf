using System.Globalization;
using SqlWaitProbe.Capture;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>Prints the end of a capture: bundle path, per-phase throughput and latency, report path.</summary>
public static class CaptureSummary
{
    /// <summary>How many verdicts and findings a capture's text summary lists (the report has them all).</summary>
    public const int FirstFindings = 5;

    /// <summary>Writes the summary to <paramref name="output"/>.</summary>
    public static void Print(CaptureOutcome outcome, TextWriter output)
    {
        output.WriteLine($"bundle: {outcome.BundleRoot} ({outcome.Status}{(outcome.Reason is null ? "" : ": " + outcome.Reason)})");
        if (outcome.AttachLines.Count > 0)
        {
            // An attach window ran no workload: its throughput table would be all zeros; what it measured is the ledger.
            foreach (var line in outcome.AttachLines)
            {
                output.WriteLine(line);
            }
        }
        else if (outcome.Phases.Count > 0)
        {
            output.WriteLine("phase      sessions  executions  errors   exec/s    ms/exec     p50 ms     p95 ms     p99 ms     max ms  overhead (95% interval)");
            foreach (var p in outcome.Phases)
            {
                // The same rule as the report's: a ratio only with its interval from enough executions.
                var o = p.Overhead;
                var ratio = o.Ratio is not { } r ? "not measured (why: below)"
                    : WhyOverheadNotShown(p) is not null
                        ? "not shown (why: below)"
                        : string.Create(CultureInfo.InvariantCulture, $"{r:0.000} ({o.RatioLow:0.00}–{o.RatioHigh:0.00})");
                // Executions the capture cancelled have no latency: with none that finished there is no percentile.
                string Latency(double ms) => p.Executions > 0 && p.Counts.Timed == 0 ? "-" : ms.ToString("0.00", CultureInfo.InvariantCulture);
                output.WriteLine(string.Format(CultureInfo.InvariantCulture, "{0,-10} {1,8} {2,11} {3,7} {4,8:0.00} {5,10:0.00} {6,10} {7,10} {8,10} {9,10}  {10}",
                    p.Name, p.Threads, p.Executions, p.Errors, p.PerSecond, p.MsPerExecution, Latency(p.Counts.P50), Latency(p.Counts.P95), Latency(p.Counts.P99), Latency(p.Counts.Max), ratio));
            }

            foreach (var p in outcome.Phases.Where(p => p.Counts.RunningAtEnd > 0))
            {
                // The same definition as the report's (docs/analysis.md, "Executions in a phase").
                output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"{p.Name}: {p.Counts.RunningAtEnd} of {p.Executions} executions {(p.Counts.RunningAtEnd == 1 ? "was" : "were")} still running at the phase end; measured up to it, {(p.Counts.RunningAtEnd == 1 ? "it counts" : "they count")} as the share that ran inside ({p.Counts.Counted:0.##} executions in all); {(p.Counts.Cancelled > 0 ? CancelledClause(p.Counts) : "latencies are whole")}"));
            }
        }

        foreach (var p in outcome.Phases)
        {
            if (WhyOverheadNotShown(p) is { } why)
            {
                output.WriteLine($"{p.Name}: observer effect {why}");
            }
        }

        if (outcome.FailedExecutions is { } failed)
        {
            output.WriteLine("errors: " + failed);
        }

        output.WriteLine(outcome.ReportFolder is null
            ? $"report: not written (run 'probe analyze {outcome.BundleRoot}')"
            : $"report: {Path.Combine(outcome.ReportFolder, "report.html")}");
    }

    /// <summary>Why a phase's observer effect is not in the table, in the words the report uses, or null when it is.</summary>
    private static string? WhyOverheadNotShown(Phases.PhaseSummary p)
    {
        var o = p.Overhead;
        if (o.Ratio is null)
        {
            return o.Method;
        }

        return Analysis.Findings.Rules.ObserverEffectRule.WhyNotShown(o.UninstrumentedExecutions, o.InstrumentedExecutions, o.RatioLow, o.RatioHigh) is { } why
            ? "not shown: " + why
            : null;
    }

    /// <summary>What the summary says of executions the capture cancelled after <c>--finish-within</c>; the report says the same.</summary>
    private static string CancelledClause(ExecutionCounts counts) => string.Create(CultureInfo.InvariantCulture,
        $"{counts.Cancelled} of them {(counts.Cancelled == 1 ? "was" : "were")} still running after --finish-within and {(counts.Cancelled == 1 ? "was" : "were")} cancelled: the time each ran until then stands for its whole time, so exec/s is an upper bound and ms/exec a lower one; latencies are of the {counts.Timed} that finished");

    /// <summary>
    /// Writes the summary as one JSON object for scripts: bundle, status, per-phase counts, rates (per second) and
    /// latencies (ms), the report folder and the first findings.
    /// </summary>
    public static void WriteJson(CaptureOutcome outcome, TextWriter output)
    {
        var summary = new
        {
            Bundle = outcome.BundleRoot,
            outcome.Status,
            outcome.Reason,
            Phases = outcome.Phases.Select(p => new
            {
                p.Name,
                Sessions = p.Threads,
                p.Executions,
                p.Errors,
                p.Seconds,
                p.Counts.RunningAtEnd,
                CancelledAfterFinishWithin = p.Counts.Cancelled,
                CountedExecutions = p.Counts.Counted,
                ExecutionsPerSecond = p.PerSecond,
                p.MsPerExecution,
                LatencyMs = new { p.Counts.P50, p.Counts.P95, p.Counts.P99, p.Counts.Max },
                Overhead = new { p.Overhead.Ratio, Low = p.Overhead.RatioLow, High = p.Overhead.RatioHigh, p.Overhead.Method },
            }),
            outcome.FailedExecutions,
            Report = outcome.ReportFolder is null ? null : Path.Combine(outcome.ReportFolder, "report.html"),
            outcome.Findings,
        };
        output.Write(JsonSerializer.Serialize(summary, ProbeJson.Options) + "\n");
    }

    /// <summary>Prints the summary in the chosen <c>--format</c>: text (with the first findings when asked) or json.</summary>
    public static void Write(CaptureOutcome outcome, string format, TextWriter output, int findings = 0)
    {
        if (format == "json")
        {
            WriteJson(outcome, output);
            return;
        }

        Print(outcome, output);
        if (findings > 0 && outcome.Findings.Count > 0)
        {
            output.WriteLine("verdict per phase, then findings:");
            foreach (var finding in outcome.Findings.Take(findings))
            {
                output.WriteLine("  - " + finding);
            }
        }
    }

    /// <summary>The exit code of a finished capture: 0 complete, 130 interrupted.</summary>
    public static int ExitCode(CaptureOutcome outcome) => outcome.Status == BundleStatus.Complete ? 0 : outcome.Status == BundleStatus.Interrupted ? 130 : 1;
}
