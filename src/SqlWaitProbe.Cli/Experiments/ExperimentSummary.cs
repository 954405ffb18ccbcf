using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Cli.Experiments;

/// <summary>The end of <c>probe experiment</c>: each variant with the settings it ran with, the restores, and the comparison's first findings.</summary>
internal static class ExperimentSummary
{
    /// <summary>Findings printed in the text summary; the comparison holds them all.</summary>
    public const int FindingsShown = 5;

    /// <summary>Writes the summary as text or one JSON object.</summary>
    public static void Write(ExperimentResult result, bool json, TextWriter output)
    {
        if (json)
        {
            WriteJson(result, output);
            return;
        }

        var outcome = result.Outcome;
        output.WriteLine(TerminalText.Line($"experiment {Path.GetFileName(result.File)}: {outcome.Status}{(outcome.Reason is null ? "" : $" ({outcome.Reason})")}, {outcome.Variants.Count} variant(s) in {result.Folder}"));
        foreach (var line in result.Split ?? [])
        {
            output.WriteLine(TerminalText.Line("  executions of phase " + line));
        }

        foreach (var v in outcome.Variants)
        {
            var settings = v.Effective.Count == 0 ? "server as it was" : string.Join(", ", v.Effective.Where(e => v.Requested.ContainsKey(e.Key)).Select(e => $"{e.Key}={e.Value}"));
            output.WriteLine(TerminalText.Line($"  {v.Name}: {v.Status}; ran with {(settings.Length == 0 ? "server as it was" : settings)}; bundle {v.Bundle}"));
        }

        foreach (var line in outcome.NotRestored)
        {
            output.WriteLine(TerminalText.Line("NOT RESTORED: " + line));
        }

        foreach (var line in outcome.Warnings)
        {
            output.WriteLine(TerminalText.Line("warning: " + line));
        }

        if (result.Comparison is { } comparison)
        {
            output.WriteLine(TerminalText.Line($"compared {string.Join(" vs ", comparison.Labels)} in {string.Join(", ", comparison.Phases.Select(p => p.Name))}"));
            output.WriteLine(comparison.Findings.Count == 0 ? "No findings." : "Findings:");
            foreach (var f in comparison.Findings.Take(FindingsShown))
            {
                output.WriteLine(TerminalText.Line($"  [{f.Severity}] {f.Title}"));
            }

            output.WriteLine(TerminalText.Line($"Comparison: {Path.Combine(result.Folder, ExperimentSession.ComparisonFolder, "compare.html")}"));
        }

        foreach (var failure in result.ComparisonFailures)
        {
            output.WriteLine(TerminalText.Line($"error: {failure}; the comparison's other files were written"));
        }
    }

    /// <summary>0 when every variant completed, everything is restored and the comparison was written; 130 after Ctrl+C; else 1.</summary>
    public static int ExitCode(ExperimentResult result) => result.Outcome.Status switch
    {
        BundleStatus.Interrupted => (int)Core.Errors.ExitCode.Interrupted,
        BundleStatus.Complete when result.Outcome.NotRestored.Count == 0 && result.ComparisonFailures.Count == 0 => (int)Core.Errors.ExitCode.Success,
        _ => (int)Core.Errors.ExitCode.Failure,
    };

    private static void WriteJson(ExperimentResult result, TextWriter output)
    {
        var summary = new
        {
            File = Path.GetFileName(result.File),
            result.Folder,
            result.Outcome.Status,
            result.Outcome.Reason,
            ExecutionSplit = result.Split,
            Variants = result.Outcome.Variants.Select(v => new { v.Name, v.Bundle, v.Status, v.Requested, v.Effective }),
            result.Outcome.NotRestored,
            result.Outcome.Warnings,
            Comparison = result.Comparison is null ? null : Path.Combine(result.Folder, ExperimentSession.ComparisonFolder, "comparison.json"),
            Findings = result.Comparison?.Findings.Select(f => new { f.Id, f.Severity, f.Title, f.Evidence }),
        };
        output.Write(JsonSerializer.Serialize(summary, ProbeJson.Options) + "\n");
    }
}
