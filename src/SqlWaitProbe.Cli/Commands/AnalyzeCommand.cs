using System.CommandLine;
using SqlWaitProbe.Analysis.Tags;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Reporting;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe analyze</c> command: builds the report of a capture bundle.</summary>
public static class AnalyzeCommand
{
    public static Command Create(IProbeConsole console)
    {
        var bundleArg = new Argument<string?>("bundle") { Description = "Capture bundle folder or .zip.", Arity = ArgumentArity.ZeroOrOne };
        var output = new Option<string?>("--output", "-o") { Description = "Report folder (default: BUNDLE/report, or NAME-report next to a .zip)." };
        var focus = new Option<string?>("--focus") { Description = "Add callers/callees of the frames matching this module!function wildcard, e.g. 'sqldk!SOS_MemoryWorkSpace::*'." };
        var stackTags = new Option<string?>("--stacktags") { Description = "Import a WPA .stacktags file; its tags are added to the built-in ones." };
        var export = new Option<string?>("--export-stacktags") { Description = "Write the stack tag sets as .stacktags and PerfView GroupPats files into this folder." };
        var format = JsonFormatOption.Create("Console output: text or json (findings.json on stdout).");
        var noVerify = new Option<bool>("--no-verify") { Description = "Analyse a bundle whose files no longer match its manifest (hand-edited or damaged): damaged files are left out and named under Data quality instead of refusing." };
        var force = new Option<bool>("--force") { Description = "Overwrite a report already in the output folder." };
        var command = new Command("analyze", "Analyse a capture bundle: time ledger, growth table, findings, flame graphs, charts; writes report.md, report.html and findings.json.");
        command.Arguments.Add(bundleArg);
        foreach (var option in new Option[] { output, focus, stackTags, export, format, noVerify, force })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) =>
        {
            var path = parse.GetValue(bundleArg);
            var outputFolder = parse.GetValue(output) ?? (path is null ? null : DefaultOutput(path));
            return CommandRunner.RunAsync(console, parse, ct, async token =>
            {
                var imported = parse.GetValue(stackTags) is { } tagFile ? StackTagsFile.Import(tagFile) : null;
                if (parse.GetValue(export) is { } exportFolder)
                {
                    foreach (var written in ExportTags(exportFolder, imported))
                    {
                        console.Out.WriteLine($"wrote {written}");
                    }
                }

                if (path is null)
                {
                    if (parse.GetValue(export) is null)
                    {
                        throw new BadInputException("name a capture bundle to analyse (or use --export-stacktags DIR alone)");
                    }

                    return (int)ExitCode.Success;
                }

                using var bundle = CaptureBundle.Open(path, cancellationToken: token);
                await Task.Run(() => bundle.Verify(parse.GetValue(noVerify)), token);
                var options = new ReportOptions { Modules = Registered.Analysis, ExtraTags = imported, Focus = parse.GetValue(focus) };
                var result = await ProgressReporter.RunAsync(console, $"analysing {path}", progress => ReportBuilder.BuildReportAsync(bundle, outputFolder!, options, progress, token));
                foreach (var failure in result.Failures)
                {
                    console.Error.WriteLine($"error: {failure}; the report's other files were written");
                }

                var exit = result.Failures.Count == 0 ? ExitCode.Success : ExitCode.Failure;
                if (parse.GetValue(format) == "json" && exit != ExitCode.Success)
                {
                    return (int)exit;
                }

                if (parse.GetValue(format) == "json")
                {
                    console.Out.Write(await File.ReadAllTextAsync(Path.Combine(outputFolder!, "findings.json"), token));
                    return (int)ExitCode.Success;
                }

                if (bundle.Manifest.Status != BundleStatus.Complete)
                {
                    console.Out.WriteLine(TerminalText.Line($"note: this capture is {bundle.Manifest.Status}{(bundle.Manifest.Reason is null ? "" : " (" + bundle.Manifest.Reason + ")")}; figures cover what was captured."));
                }

                console.Out.WriteLine("Verdict:");
                foreach (var v in result.Analysis.Verdicts)
                {
                    console.Out.WriteLine($"  {v.Phase}: {v.Text}");
                    console.Out.WriteLine($"    next: {v.Next}");
                }

                console.Out.WriteLine(result.Analysis.Findings.Count == 0 ? "No findings." : "Findings:");
                foreach (var f in result.Analysis.Findings)
                {
                    console.Out.WriteLine(TerminalText.Line($"  [{f.Severity}] {f.Title}"));
                }

                console.Out.WriteLine("Report:");
                foreach (var file in result.Files.Where(f => f.EndsWith(".md", StringComparison.Ordinal) || f.EndsWith(".html", StringComparison.Ordinal) || f.EndsWith(".json", StringComparison.Ordinal)))
                {
                    console.Out.WriteLine($"  {file}");
                }

                console.Out.WriteLine($"  ({result.Files.Count} files in {Path.GetFullPath(outputFolder!)})");
                return (int)exit;
            }, outputFolder, () =>
            {
                string?[] inputs = [path, parse.GetValue(stackTags)];
                if (parse.GetValue(export) is { } exportFolder)
                {
                    OutputPath.CheckFolder(exportFolder, "--export-stacktags", [.. inputs.OfType<string>()], null);
                }

                if (outputFolder is not null)
                {
                    // A bundle folder's own report folder is the one place inside an input a report may go.
                    OutputPath.CheckReportFolder(outputFolder, parse.GetValue(force), [.. inputs.OfType<string>()], path is not null && Directory.Exists(path) ? DefaultOutput(path) : null);
                }
            });
        });
        return command;
    }

    /// <summary>The default report folder: inside a bundle folder, or beside a zipped bundle.</summary>
    public static string DefaultOutput(string bundlePath) =>
        Directory.Exists(bundlePath)
            ? Path.Combine(bundlePath, BundlePaths.ReportFolder)
            : Path.Combine(Path.GetDirectoryName(Path.GetFullPath(bundlePath))!, Path.GetFileNameWithoutExtension(bundlePath) + "-report");

    private static IEnumerable<string> ExportTags(string folder, StackTagSet? imported)
    {
        Directory.CreateDirectory(folder);
        // The last registered engine first, as the exported files have always been listed.
        var sets = Registered.Engines.Reverse().Select(e => e.StackTags).ToList();
        if (imported is not null)
        {
            sets.Add(imported);
        }

        foreach (var set in sets)
        {
            foreach (var (ext, text) in new[] { (".stacktags", StackTagsFile.ToStackTags(set)), (".grouppats.txt", StackTagsFile.ToPerfViewGroupPats(set)) })
            {
                var path = Path.Combine(folder, set.Name + ext);
                Core.Files.AtomicFile.WriteAllText(path, text);
                yield return path;
            }
        }
    }
}
