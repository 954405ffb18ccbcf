using System.CommandLine;
using System.Text.Json;
using Spectre.Console;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe workloads list|show</c>: the built-in workloads with the exact SQL they run.</summary>
public static class WorkloadsCommand
{
    private static readonly Option<string?> Engine = new("--engine", "-e") { Description = $"Only this engine's workloads: {EngineCatalog.Listed}." };
    private static readonly Option<string> Format = new("--format") { Description = "Output format: table or json.", DefaultValueFactory = _ => "table" };
    private static readonly Option<double?> Scale = new("--scale") { Description = "Data size the SQL is shown for, above 0 and at most 100 (default per engine)." };

    public static Command Create(IProbeConsole console)
    {
        var command = new Command("workloads", "List the built-in workloads or show one with its exact SQL.");
        var list = new Command("list", "List the workloads: name, engine, what each does and what it is known to show.");
        var show = new Command("show", "Show one workload with the exact setup, session and query SQL it runs.");
        var name = new Argument<string>("name") { Description = "Workload name, e.g. hashbytes." };
        show.Arguments.Add(name);
        foreach (var c in new[] { list, show })
        {
            c.Options.Add(Engine);
            c.Options.Add(Format);
            c.Options.Add(Scale);
            command.Subcommands.Add(c);
        }

        list.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, _ =>
        {
            var workloads = Catalog(parse);
            if (IsJson(parse))
            {
                console.Out.WriteLine(JsonSerializer.Serialize(workloads, ProbeJson.Options));
                return Task.FromResult(0);
            }

            // One block per workload, wrapped between words at the terminal's width (80 columns when not a terminal): a
            // four-column table leaves each text column some 20 characters on an 80-column terminal and breaks names such
            // as MEMORYCLERK_SQLQERESERVATIONS in the middle.
            var width = Math.Max(40, Output(console).Profile.Width);
            foreach (var w in workloads)
            {
                console.Out.WriteLine($"{w.Name} ({w.Engine})");
                foreach (var line in WordWrap.Lines(w.Summary, width - 2).Concat(WordWrap.Lines("Known to show: " + w.KnownToShow, width - 2)))
                {
                    console.Out.WriteLine("  " + line);
                }

                console.Out.WriteLine();
            }

            return Task.FromResult(0);
        }));
        show.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, _ =>
        {
            var wanted = parse.GetValue(name)!;
            var matches = Catalog(parse).Where(w => string.Equals(w.Name, wanted, StringComparison.OrdinalIgnoreCase)).ToArray();
            if (matches.Length == 0)
            {
                throw new BadInputException($"no workload named '{wanted}'; see 'probe workloads list'");
            }

            if (IsJson(parse))
            {
                console.Out.WriteLine(JsonSerializer.Serialize(matches, ProbeJson.Options));
                return Task.FromResult(0);
            }

            foreach (var w in matches)
            {
                console.Out.WriteLine($"{w.Name} ({w.Engine}): {w.Summary}");
                console.Out.WriteLine($"Known to show: {w.KnownToShow}");
                console.Out.WriteLine("-- setup (run once, idempotent)");
                foreach (var s in w.Setup)
                {
                    console.Out.WriteLine(PasteReady(w, s));
                }

                if (w.SessionSetup.Count > 0)
                {
                    console.Out.WriteLine("-- on each new session");
                    foreach (var s in w.SessionSetup)
                    {
                        console.Out.WriteLine(PasteReady(w, s));
                    }
                }

                console.Out.WriteLine("-- every execution");
                console.Out.WriteLine(PasteReady(w, w.Query));
            }

            return Task.FromResult(0);
        }));
        return command;
    }

    /// <summary>Every built-in workload name, every registered engine, for completions.</summary>
    public static IEnumerable<string> Names() =>
        Registered.Engines.SelectMany(e => e.Workloads(null)).Select(w => w.Name).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal);

    private static IReadOnlyList<WorkloadDefinition> Catalog(ParseResult parse)
    {
        var engine = parse.GetValue(Engine);
        var scale = parse.GetValue(Scale);
        // Without --engine, the list keeps its order of old: the last registered engine's workloads first.
        return engine is null
            ? [.. Registered.Engines.Reverse().SelectMany(e => e.Workloads(scale))]
            : EngineCatalog.Find(engine).Workloads(scale);
    }

    private static string PasteReady(WorkloadDefinition workload, string sql) => EngineCatalog.Find(workload.Engine).PasteReady(sql);

    private static bool IsJson(ParseResult parse) => (parse.GetValue(Format) ?? "table").ToLowerInvariant() switch
    {
        "json" => true,
        "table" => false,
        var f => throw new BadInputException($"--format '{f}' is not known; use table or json"),
    };

    private static IAnsiConsole Output(IProbeConsole console) => AnsiConsole.Create(new AnsiConsoleSettings
    {
        Out = new AnsiConsoleOutput(console.Out),
        Ansi = console.IsOutputRedirected ? AnsiSupport.No : AnsiSupport.Detect,
        ColorSystem = console.IsOutputRedirected ? ColorSystemSupport.NoColors : ColorSystemSupport.Detect,
    });
}
