using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>
/// The registered engines as the command line uses them: <c>--engine</c>, finding one by name, refusing another
/// engine's options, and creating the engine of a capture. No engine is named here; <see cref="Registered.Engines"/>
/// is the list.
/// </summary>
public static class EngineCatalog
{
    /// <summary>The engine names, in help order.</summary>
    public static IReadOnlyList<string> Names { get; } = [.. Registered.Engines.Select(e => e.Name)];

    /// <summary>The names as help and errors list them: <c>postgres or sqlserver</c>.</summary>
    public static string Listed => string.Join(" or ", Names);

    /// <summary><c>--engine</c> of <c>probe capture</c>.</summary>
    public static OptionSpec<string> Engine { get; } = new("--engine", "-e")
    {
        Help = $"Database engine: {Listed}.",
        HelpOrder = 10,
        Default = () => Names[0],
    };

    /// <summary>The registered engines that run experiments, by name in help order: what an experiment file's <c>engine:</c> may say.</summary>
    public static IReadOnlyDictionary<string, Core.ServerSettings.IExperimentEngine> Experiments { get; } =
        Registered.Engines.Where(e => e.Experiments is not null).ToDictionary(e => e.Name, e => e.Experiments!, StringComparer.Ordinal);

    /// <summary>The engine called <paramref name="name"/> (any case); throws <see cref="BadInputException"/> for an unknown one.</summary>
    public static IEngineModule Find(string? name) =>
        Registered.Engines.FirstOrDefault(e => string.Equals(e.Name, name?.Trim(), StringComparison.OrdinalIgnoreCase))
        ?? throw new BadInputException($"--engine '{name?.ToLowerInvariant()}' is not known; use {Listed}");

    /// <summary>
    /// The engine <paramref name="options"/> ask for, validated (passwords asked on <paramref name="console"/>); an option
    /// another engine owns, or that this one refuses, is one line and exit 2.
    /// </summary>
    public static IEngine Create(OptionValues options, IProbeConsole console, RunScope scope) => Create(options, Context(console, scope));

    /// <summary>As <see cref="Create(OptionValues, IProbeConsole, RunScope)"/> with what the engine may ask given as <paramref name="context"/>.</summary>
    public static IEngine Create(OptionValues options, EngineContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var engine = Find(options.Get(Engine));
        foreach (var (name, _) in options.Given)
        {
            if (engine.CaptureOptions.Any(o => o.Name == name))
            {
                continue;
            }

            var owners = Registered.Engines.Where(e => e != engine && e.CaptureOptions.Any(o => o.Name == name)).Select(e => e.Name).ToArray();
            if (owners.Length > 0 || engine.RefusedOptions.Contains(name))
            {
                var only = owners.Length > 0 ? string.Join(" or ", owners) : string.Join(" or ", Names.Where(n => n != engine.Name));
                throw new BadInputException($"{name} applies to --engine {only} only");
            }
        }

        return engine.Create(options, context);
    }

    /// <summary>What an engine may ask of the terminal (a password, unless input is redirected), and the run it belongs to.</summary>
    public static EngineContext Context(IProbeConsole console, RunScope scope) =>
        new(console.IsInputRedirected ? null : prompt => ConsolePrompt.ReadSecret(console, prompt), scope);
}
