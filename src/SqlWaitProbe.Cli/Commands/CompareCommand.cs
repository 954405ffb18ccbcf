using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Reporting;
using SqlWaitProbe.Reporting.Comparison;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe compare</c> command: sets two or more capture bundles side by side, per execution.</summary>
public static class CompareCommand
{
    public static Command Create(IProbeConsole console)
    {
        var bundles = new Argument<string[]>("bundles") { Description = "Two or more capture bundles (folders or .zip), the first being the reference every Δ is taken from.", Arity = ArgumentArity.OneOrMore };
        var output = new Option<string>("--output", "-o") { Description = "Folder for compare.md, compare.html, comparison.json, differential flame graphs and charts.", Required = true };
        var label = new Option<string?>("--label") { Description = "Column labels, comma-separated, one per bundle (default: what differs between the captures' configurations, else the bundles' names)." };
        var phase = new Option<string?>("--phase") { Description = "Compare only this phase (default: every phase the captures share), e.g. load." };
        var noVerify = new Option<bool>("--no-verify") { Description = "Compare bundles whose files no longer match their manifest (hand-edited or damaged): damaged files are left out and named under Data quality instead of refusing." };
        var command = new Command("compare", "Compare capture bundles per execution: time ledger, throughput and latency, waits, latches, spinlocks, XE pages, user vs kernel CPU, modules and stack tags with Δ, differential flame graphs; writes compare.md, compare.html and comparison.json.");
        command.Arguments.Add(bundles);
        foreach (var option in new Option[] { output, label, phase, noVerify })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) =>
        {
            var folder = parse.GetValue(output)!;
            return CommandRunner.RunAsync(console, parse, ct, async token =>
            {
                var paths = parse.GetValue(bundles) ?? [];
                var labels = parse.GetValue(label) is { } text ? ParseLabels(text) : null;
                var (result, files, failures) = await ProgressReporter.RunAsync(console, $"comparing {paths.Length} captures",
                    progress => CompareBuilder.BuildAsync(paths, labels, parse.GetValue(phase), folder, new ReportOptions { Modules = Registered.Analysis }, progress, token, parse.GetValue(noVerify)));
                foreach (var w in result.Warnings)
                {
                    console.Out.WriteLine(TerminalText.Line($"warning: {w}"));
                }

                console.Out.WriteLine(TerminalText.Line($"compared {string.Join(" vs ", result.Labels)} in {string.Join(", ", result.Phases.Select(p => p.Name))}"));
                console.Out.WriteLine(result.Findings.Count == 0 ? "No findings." : "Findings:");
                foreach (var f in result.Findings)
                {
                    console.Out.WriteLine(TerminalText.Line($"  [{f.Severity}] {f.Title}"));
                }

                console.Out.WriteLine("Report:");
                foreach (var file in files.Take(3))
                {
                    console.Out.WriteLine(TerminalText.Line($"  {file}"));
                }

                console.Out.WriteLine($"  ({files.Count} files in {Path.GetFullPath(folder)})");
                foreach (var failure in failures)
                {
                    console.Error.WriteLine(TerminalText.Line($"error: {failure}; the comparison's other files were written"));
                }

                return (int)(failures.Count == 0 ? ExitCode.Success : ExitCode.Failure);
            }, folder, () => OutputPath.CheckReportFolder(folder, force: true, parse.GetValue(bundles) ?? []));
        });
        return command;
    }

    private static string[] ParseLabels(string text)
    {
        var labels = text.Split(',', StringSplitOptions.TrimEntries);
        return labels.Any(l => l.Length == 0)
            ? throw new BadInputException($"--label '{text}' has an empty label; give one name per bundle, e.g. --label md5,sha512")
            : labels;
    }
}
