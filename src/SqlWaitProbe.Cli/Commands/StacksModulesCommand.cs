using System.CommandLine;
using System.Text.Json;
using Spectre.Console;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks modules</c>: each module's exclusive (leaf) and inclusive share of each process's samples.</summary>
public static class StacksModulesCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create(IProbeConsole console)
    {
        var input = StacksArguments.Input();
        var process = new Option<string?>("--process") { Description = "Only this process (as perf names it, e.g. postgres)" };
        var format = new Option<string>("--format") { Description = "table, csv or json", DefaultValueFactory = _ => "table" };
        format.AcceptOnlyFromAmong("table", "csv", "json");
        var command = new Command("modules", "Show which modules the CPU samples are in: exclusive (leaf) and inclusive share, kernel vs user.");
        command.Arguments.Add(input);
        command.Options.Add(process);
        command.Options.Add(format);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, _ =>
        {
            var profile = StacksInput.LoadProfile(console, parse.GetValue(input)!);
            var name = parse.GetValue(process);
            if (name is not null && !profile.Processes.Contains(name, StringComparer.Ordinal))
            {
                throw new BadInputException($"no process named '{name}'; the input has: {string.Join(", ", profile.Processes.Order(StringComparer.Ordinal).Take(20))}");
            }

            var shares = ModuleShares.Compute(profile, name);
            switch (parse.GetValue(format))
            {
                case "csv":
                    console.Out.Write("process,module,kernel,exclusiveWeight,inclusiveWeight,exclusiveShare,inclusiveShare\n");
                    foreach (var s in shares)
                    {
                        console.Out.Write(Csv.Line(s.Process, s.Module, s.Kernel ? "1" : "0", Csv.Number(s.ExclusiveWeight), Csv.Number(s.InclusiveWeight),
                            s.ExclusiveShare.ToString("0.######", System.Globalization.CultureInfo.InvariantCulture),
                            s.InclusiveShare.ToString("0.######", System.Globalization.CultureInfo.InvariantCulture)) + "\n");
                    }

                    break;
                case "json":
                    console.Out.Write(JsonSerializer.Serialize(shares, ProbeJson.Options) + "\n");
                    break;
                default:
                    var table = new Table().AddColumns("Process", "Module", "Kind", "Exclusive", "Inclusive");
                    foreach (var s in shares)
                    {
                        table.AddRow(Markup.Escape(s.Process), Markup.Escape(s.Module), s.Kernel ? "kernel" : "user",
                            s.ExclusiveShare.ToString("P1", System.Globalization.CultureInfo.InvariantCulture),
                            s.InclusiveShare.ToString("P1", System.Globalization.CultureInfo.InvariantCulture));
                    }

                    StacksConsole.Create(console).Write(table);
                    break;
            }

            return Task.FromResult(0);
        }));
        return command;
    }
}
