using System.CommandLine;
using System.Globalization;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Linux.Perf;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks fold</c>: folded stacks, the same stacks and weights inferno-collapse-perf writes.</summary>
public static class StacksFoldCommand
{
    public static Command Create(IProbeConsole console)
    {
        var input = StacksArguments.Input();
        var output = new Option<string?>("--output", "-o") { Description = "Output file (default: stdout)" };
        var pid = new Option<bool>("--pid") { Description = "Root frame comm-PID" };
        var tid = new Option<bool>("--tid") { Description = "Root frame comm-PID/TID" };
        var kernel = new Option<bool>("--kernel") { Description = "Mark kernel frames with _[k]" };
        var jit = new Option<bool>("--jit") { Description = "Mark JIT frames with _[j]" };
        var all = new Option<bool>("--all") { Description = "Both --kernel and --jit" };
        var addrs = new Option<bool>("--addrs", "--addresses") { Description = "Name unresolved frames with their address (module!0xRVA in a Windows trace)" };
        var process = StacksArguments.Process();
        var force = StacksArguments.Force();
        var command = new Command("fold", "Fold stacks: one line per distinct stack, 'process;root;...;leaf WEIGHT'.");
        command.Arguments.Add(input);
        foreach (var option in new Option[] { output, pid, tid, kernel, jit, all, addrs, process, force })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async _ =>
        {
            var options = new PerfFoldOptions(
                IncludePid: parse.GetValue(pid),
                IncludeTid: parse.GetValue(tid),
                AnnotateKernel: parse.GetValue(kernel) || parse.GetValue(all),
                AnnotateJit: parse.GetValue(jit) || parse.GetValue(all),
                IncludeAddresses: parse.GetValue(addrs));
            var path = parse.GetValue(input)!;
            var folded = StacksInput.LoadFolded(console, path, options, StacksArguments.Selection(parse, process, addrs));
            await StacksOutput.WriteTextAsync(console, parse.GetValue(output), parse.GetValue(force), writer =>
            {
                foreach (var (stack, weight) in folded.OrderBy(e => e.Key, StringComparer.Ordinal))
                {
                    writer.Write(stack);
                    writer.Write(' ');
                    writer.Write(weight.ToString(CultureInfo.InvariantCulture));
                    writer.Write('\n');
                }
            });
            return 0;
        }, checkOutput: () => StacksOutput.Check(parse.GetValue(output), parse.GetValue(force), parse.GetValue(input))));
        return command;
    }
}
