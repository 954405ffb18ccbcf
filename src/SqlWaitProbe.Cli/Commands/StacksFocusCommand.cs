using System.CommandLine;
using System.Globalization;
using Spectre.Console;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks focus</c>: callers and callees of the frames matching a pattern.</summary>
public static class StacksFocusCommand
{
    public static Command Create(IProbeConsole console)
    {
        var focus = new Option<string>("--focus") { Description = "Frames to focus on: 'module!symbol' glob with *, or a plain substring", Required = true };
        return StacksReportCommand.Create(
            console,
            "focus",
            "Show who calls the matching frames and what they call, with inclusive and exclusive weights.",
            "table, or json (the focus, callers and callees with weights in samples)",
            ["json"],
            [focus],
            (parse, stacks, output) =>
            {
                var pattern = parse.GetValue(focus)!;
                if (string.IsNullOrWhiteSpace(pattern))
                {
                    throw new BadInputException("--focus needs a pattern such as 'libcrypto*!*' or 'EVP_Digest'");
                }

                var view = CallerCalleeView.Compute(stacks.Profile, pattern);
                if (view.MatchedFrames.Count == 0)
                {
                    throw new BadInputException($"no frame matches '{pattern}'");
                }

                if (output.IsJson)
                {
                    output.Json(new
                    {
                        Focus = pattern,
                        Unit = "samples",
                        MatchedFrames = view.MatchedFrames.Count,
                        view.TotalWeight,
                        view.InclusiveWeight,
                        view.ExclusiveWeight,
                        Callers = view.Callers.Select(e => new { e.Name, e.InclusiveWeight, e.Share }),
                        Callees = view.Callees.Select(e => new { e.Name, e.InclusiveWeight, e.ExclusiveWeight, e.Share }),
                    });
                    return;
                }

                output.Ansi.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"Focus '{TerminalText.Line(pattern)}': {view.MatchedFrames.Count} frame(s), inclusive {Share(view.InclusiveWeight, view.TotalWeight)}, exclusive {Share(view.ExclusiveWeight, view.TotalWeight)} of all samples"));
                output.Ansi.Write(Table("Callers", view.Callers, withExclusive: false, stacks.Unit));
                output.Ansi.Write(Table("Callees", view.Callees, withExclusive: true, stacks.Unit));
            });
    }

    private static Table Table(string title, IReadOnlyList<CallerCalleeEntry> entries, bool withExclusive, string unit)
    {
        // Weights in their unit: time-based ones (perf cpu-clock periods, speedscope times) as ms, counts as samples.
        double? perMs = unit switch { "nanoseconds" => 1e6, "microseconds" => 1e3, "milliseconds" => 1, "seconds" => 1e-3, _ => null };
        var suffix = perMs is null ? " (samples)" : " (ms)";
        string Weight(long w) => perMs is { } d ? (w / d).ToString("0.###", CultureInfo.InvariantCulture) : w.ToString(CultureInfo.InvariantCulture);
        var table = new Table { Title = new TableTitle(title) };
        table.AddColumns("Frame", "Inclusive" + suffix, "% of focus");
        if (withExclusive)
        {
            table.AddColumn("Exclusive" + suffix);
        }

        foreach (var e in entries.Take(40))
        {
            var cells = new List<string> { Markup.Escape(TerminalText.Line(e.Name)), Weight(e.InclusiveWeight), StacksReportCommand.Percent(e.Share) };
            if (withExclusive)
            {
                cells.Add(Weight(e.ExclusiveWeight));
            }

            table.AddRow(cells.ToArray());
        }

        return table;
    }

    private static string Share(long part, long total) => StacksReportCommand.Percent(total == 0 ? 0 : (double)part / total);
}
