using System.CommandLine;
using System.Globalization;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.Reporting.FlameGraphs;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks diff</c>: a differential flame graph of two profiles, or the two-column folded form.</summary>
public static class StacksDiffCommand
{
    public static Command Create(IProbeConsole console)
    {
        var before = StacksArguments.Input("before", "The first profile, e.g. the 1-session baseline: " + StacksArguments.InputDescription);
        var after = StacksArguments.Input("after", "The second profile, e.g. the N-session phase, in any of the same formats");
        var output = new Option<string?>("--output", "-o") { Description = "The SVG (or, with --folded, text) file to write; --folded writes to stdout without it" };
        var aExec = new Option<double?>("--a-executions") { Description = "Executions during the first profile (compare per execution)" };
        var bExec = new Option<double?>("--b-executions") { Description = "Executions during the second profile" };
        var folded = new Option<bool>("--folded") { Description = "Write 'stack before after' lines instead of an SVG" };
        var normalize = new Option<bool>("--normalize") { Description = "With --folded: scale the first profile to the second's total" };
        var title = new Option<string?>("--title") { Description = "Title of the SVG" };
        var minWidth = new Option<double>("--min-width") { Description = "Leave out frames narrower than this many pixels", DefaultValueFactory = _ => 0.1 };
        var width = new Option<int>("--width") { Description = "Image width in pixels", DefaultValueFactory = _ => 1200 };
        var force = StacksArguments.Force();
        var process = StacksArguments.Process();
        var addresses = StacksArguments.Addresses();
        var command = new Command("diff", "Compare two profiles: widths from the second, red where per-execution cost grew, blue where it shrank.");
        command.Arguments.Add(before);
        command.Arguments.Add(after);
        foreach (var option in new Option[] { output, aExec, bExec, folded, normalize, title, minWidth, width, process, addresses, force })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async _ =>
        {
            var a = parse.GetValue(before)!;
            var b = parse.GetValue(after)!;
            if (a == "-" && b == "-")
            {
                throw new BadInputException("only one of the two profiles can be read from standard input ('-')");
            }

            var (ea, eb) = (parse.GetValue(aExec), parse.GetValue(bExec));
            if (ea.HasValue != eb.HasValue)
            {
                throw new BadInputException("give both --a-executions and --b-executions, or neither");
            }

            if (ea is <= 0 || eb is <= 0)
            {
                throw new BadInputException("execution counts must be positive");
            }

            var target = parse.GetValue(output);
            var selection = StacksArguments.Selection(parse, process, addresses);
            if (parse.GetValue(folded))
            {
                var fa = StacksInput.LoadFolded(console, a, PerfFoldOptions.Default, selection);
                var fb = StacksInput.LoadFolded(console, b, PerfFoldOptions.Default, selection);
                var scale = ea.HasValue ? eb!.Value / ea.Value : parse.GetValue(normalize) ? FoldedDiff.NormalizeTotals(fa, fb) : 1;
                var rows = FoldedDiff.Pair(fa, fb, scale);
                await StacksOutput.WriteTextAsync(console, target, parse.GetValue(force), writer =>
                {
                    foreach (var (stack, x, y) in rows)
                    {
                        writer.Write(string.Create(CultureInfo.InvariantCulture, $"{stack} {x} {y}\n"));
                    }
                });
                return 0;
            }

            if (target is null)
            {
                throw new BadInputException("the flame graph needs an output file: -o OUT.svg");
            }

            var layout = StacksFlameGraphCommand.Layout(parse.GetValue(width), parse.GetValue(minWidth));
            var pa = StacksInput.LoadProfile(console, a, selection);
            var pb = StacksInput.LoadProfile(console, b, selection);

            // Without execution counts, compare each frame's percentage of all samples.
            var svg = new FlameGraphRenderer(layout with { CountName = ea.HasValue ? "samples per execution" : "% of all samples" }).RenderDiff(
                pa, ea ?? Math.Max(1, pa.TotalWeight) / 100.0, pb, eb ?? Math.Max(1, pb.TotalWeight) / 100.0,
                parse.GetValue(title) ?? $"{Path.GetFileName(a)} → {Path.GetFileName(b)}");
            await StacksOutput.WriteTextAsync(console, target, parse.GetValue(force), writer => writer.Write(svg));
            return 0;
        }, checkOutput: () => StacksOutput.Check(parse.GetValue(output), parse.GetValue(force), parse.GetValue(before), parse.GetValue(after))));
        return command;
    }
}
