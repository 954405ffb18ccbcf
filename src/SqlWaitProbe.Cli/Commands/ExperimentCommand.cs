using System.CommandLine;
using SqlWaitProbe.Cli.Experiments;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// <c>probe experiment FILE -o DIR</c>: runs the variants of an experiment file (settings applied, read back and restored;
/// setup, fixed work, competing load) as one capture bundle each, then compares them.
/// </summary>
public static class ExperimentCommand
{
    public static Command Create(IProbeConsole console)
    {
        var file = new Argument<string>("file") { Description = "The experiment file (YAML or JSON): engine, setup and teardown, workload, threads, iterations or duration, background load and variants with their settings (see docs/experiments.md)." };
        var output = new Option<string>("--output", "-o") { Description = "New folder for one bundle per variant (named after it) and the comparison of all of them (comparison/).", Required = true };
        var dryRun = new Option<bool>("--dry-run") { Description = "Check the file and print every statement the experiment would send, in order, restores included, and the capture of each variant, without connecting." };
        var format = JsonFormatOption.Create("The summary at the end: text, or json (status, each variant's bundle and settings requested and read back, the comparison's findings) for scripts; progress stays on stderr.");
        var command = new Command("experiment", "Run an experiment: each variant's server settings applied (read before, read back, restored after, also on Ctrl+C and failure), its capture of the same fixed work, then a comparison of the variants.");
        command.Arguments.Add(file);
        foreach (var option in new Option[] { output, dryRun, format })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) =>
        {
            var path = parse.GetValue(file)!;
            var folder = parse.GetValue(output)!;
            var dry = parse.GetValue(dryRun);
            ExperimentPlan? plan = null;
            return CommandRunner.RunAsync(console, parse, ct, async token =>
            {
                if (dry)
                {
                    ExperimentDryRun.Write(plan!, console.Out);
                    return (int)ExitCode.Success;
                }

                var json = parse.GetValue(format) == "json";
                var result = await ProgressReporter.RunAsync(console, $"experiment {Path.GetFileName(path)} into {folder}",
                    progress => ExperimentSession.RunAsync(plan!, progress, token), plain: json);
                ExperimentSummary.Write(result, json, console.Out);
                return ExperimentSummary.ExitCode(result);
            }, dry ? null : folder, () =>
            {
                // Everything that can be told without a server is checked before the output folder exists.
                plan = ExperimentPlan.Read(path, folder, dry, console, parse.GetValue(GlobalOptions.Verbose));
            });
        });
        return command;
    }
}
