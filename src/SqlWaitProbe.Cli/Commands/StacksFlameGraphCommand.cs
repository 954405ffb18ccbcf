using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Reporting.FlameGraphs;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks flamegraph</c>: an interactive, self-contained SVG flame graph.</summary>
public static class StacksFlameGraphCommand
{
    public static Command Create(IProbeConsole console)
    {
        var input = StacksArguments.Input();
        var output = new Option<string>("--output", "-o") { Description = "The SVG file to write", Required = true };
        var title = new Option<string?>("--title") { Description = "Title (default: the input's file name)" };
        var minWidth = new Option<double>("--min-width") { Description = "Leave out frames narrower than this many pixels", DefaultValueFactory = _ => 0.1 };
        var width = new Option<int>("--width") { Description = "Image width in pixels", DefaultValueFactory = _ => 1200 };
        var force = StacksArguments.Force();
        var process = StacksArguments.Process();
        var addresses = StacksArguments.Addresses();
        var command = new Command("flamegraph", "Draw an interactive SVG flame graph (hover, click to zoom, a search box that highlights matching frames).");
        command.Arguments.Add(input);
        foreach (var option in new Option[] { output, title, minWidth, width, process, addresses, force })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async _ =>
        {
            var path = parse.GetValue(input)!;
            var options = Layout(parse.GetValue(width), parse.GetValue(minWidth));
            var profile = StacksInput.LoadProfile(console, path, StacksArguments.Selection(parse, process, addresses));
            var svg = new FlameGraphRenderer(options).Render(profile, parse.GetValue(title) ?? Path.GetFileName(path));
            await StacksOutput.WriteTextAsync(console, parse.GetValue(output), parse.GetValue(force), writer => writer.Write(svg));
            return 0;
        }, checkOutput: () => StacksOutput.Check(parse.GetValue(output), parse.GetValue(force), parse.GetValue(input))));
        return command;
    }

    /// <summary>Checks the layout options and builds them.</summary>
    internal static FlameGraphOptions Layout(int width, double minWidth)
    {
        if (width < 100 || width > 100_000)
        {
            throw new BadInputException($"--width {width} is out of range (100 to 100000 pixels)");
        }

        if (!(minWidth >= 0))
        {
            throw new BadInputException("--min-width must be zero or more pixels");
        }

        return new FlameGraphOptions(Width: width, MinWidthPixels: minWidth);
    }
}
