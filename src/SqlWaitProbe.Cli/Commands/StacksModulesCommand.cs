using System.CommandLine;
using Spectre.Console;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks modules</c>: each module's exclusive (leaf) and inclusive share of each process's samples.</summary>
public static class StacksModulesCommand
{
    public static Command Create(IProbeConsole console)
    {
        return StacksReportCommand.Create(
            console,
            "modules",
            "Show which modules the CPU samples are in: exclusive (leaf) and inclusive share, kernel vs user.",
            "table, csv or json",
            ["csv", "json"],
            [],
            (parse, stacks, output) =>
            {
                // --process was applied when the stacks were read.
                var shares = ModuleShares.Compute(stacks.Profile);
                if (output.IsJson)
                {
                    output.Json(shares);
                }
                else if (output.Format == "csv")
                {
                    output.CsvLine("process", "module", "kernel", "exclusiveWeight", "inclusiveWeight", "exclusiveShare", "inclusiveShare");
                    foreach (var s in shares)
                    {
                        output.CsvLine(s.Process, s.Module, s.Kernel ? "1" : "0", Csv.Number(s.ExclusiveWeight), Csv.Number(s.InclusiveWeight), Fraction(s.ExclusiveShare), Fraction(s.InclusiveShare));
                    }
                }
                else
                {
                    var table = new Table().AddColumns("Process", "Module", "Kind", "Exclusive", "Inclusive");
                    foreach (var s in shares)
                    {
                        table.AddRow(Markup.Escape(TerminalText.Line(s.Process)), Markup.Escape(TerminalText.Line(s.Module)), s.Kernel ? "kernel" : "user", StacksReportCommand.Percent(s.ExclusiveShare), StacksReportCommand.Percent(s.InclusiveShare));
                    }

                    output.Ansi.Write(table);
                }
            });
    }

    // Shares in CSV are plain fractions (0 to 1) with up to six decimals, for spreadsheets and scripts.
    private static string Fraction(double share) => share.ToString("0.######", System.Globalization.CultureInfo.InvariantCulture);
}
