using SqlWaitProbe.Core.Check;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Waits;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Core.Engines;

/// <summary>
/// Everything a database engine brings to the probe, registered once: its capture options and their validation
/// (through <see cref="Create"/>), the per-capture engine (server, data, collectors, attach filter, dry run), its
/// workloads, <c>probe check</c>, the leftovers it can clean on a server, and its redaction rules. The command line
/// reads only the one list of registered engines; a new engine is a project with one class implementing this and one
/// line in that list.
/// </summary>
public interface IEngineModule
{
    /// <summary>The engine's name on the command line and in the manifest, e.g. <c>postgres</c>.</summary>
    string Name { get; }

    /// <summary>
    /// The engine's server process: its name (which the OS collectors sample and the manifest records), the modules of
    /// its own code and how its per-session counters grow, for the analysis of its bundles.
    /// </summary>
    EngineProcess Process { get; }

    /// <summary>The options of <c>probe capture</c> only this engine takes; another engine refuses them.</summary>
    IReadOnlyList<IOptionSpec> CaptureOptions { get; }

    /// <summary>Options of other modules this engine refuses although no other engine owns them (one line each).</summary>
    IReadOnlyList<string> RefusedOptions => [];

    /// <summary>Validates the options that apply to this engine (throws <see cref="Errors.BadInputException"/>) and creates the engine of one capture; nothing starts.</summary>
    IEngine Create(OptionValues options, EngineContext context);

    /// <summary>The built-in workloads at <paramref name="scale"/> (null: the engine's default data size).</summary>
    IReadOnlyList<WorkloadDefinition> Workloads(double? scale);

    /// <summary>One statement as it can be pasted into the engine's own client (a batch separator or a semicolon).</summary>
    string PasteReady(string sql);

    /// <summary>The options of <c>probe check</c> only this engine reads.</summary>
    IReadOnlyList<IOptionSpec> CheckOptions { get; }

    /// <summary>The check of <paramref name="target"/> that <c>probe check</c> runs; validates this engine's check options.</summary>
    IServerCheck CreateCheck(CheckTarget target, OptionValues options, EngineContext context);

    /// <summary>The options of <c>probe cleanup</c> only this engine reads (a server to clean).</summary>
    IReadOnlyList<IOptionSpec> CleanupOptions => [];

    /// <summary>
    /// Connects to the server the cleanup options name, to drop the server-side sessions killed captures recorded; null
    /// when those options are not given.
    /// </summary>
    Task<IServerCleanup?> OpenCleanupAsync(OptionValues options, CancellationToken cancellationToken) => Task.FromResult<IServerCleanup?>(null);

    /// <summary>What <c>probe experiment</c> needs of the engine; null when it runs no experiments.</summary>
    ServerSettings.IExperimentEngine? Experiments => null;

    /// <summary>The engine's collector modules (its catalog), for the analysis of their files in any bundle.</summary>
    IReadOnlyList<ICollectorModule> Collectors { get; }

    /// <summary>
    /// The class of one of this engine's waits (idle, intended, the client's; resource for any other), or null when
    /// <paramref name="waitType"/> is not of this engine's form, so a bundle of an engine this build does not know is
    /// still classed by the names it holds.
    /// </summary>
    WaitClass? ClassOfWait(string waitType);

    /// <summary>
    /// How this engine's attach captures follow sessions and measure their waits, CPU and run queue, for the Method
    /// section of their reports; null when the engine has no attach mode of its own.
    /// </summary>
    string? AttachMethod => null;

    /// <summary>The stack tags that ship for this engine, applied to its bundles' CPU stacks.</summary>
    StackTagSet StackTags { get; }

    /// <summary>The next steps of findings that need the engine's own tools, for the analysis of its bundles.</summary>
    EngineAdvice Advice { get; }

    /// <summary>
    /// Entries of the manifest's configuration that name the server instance rather than configure it (a data folder,
    /// a port, the probe's own session's client settings): two captures of one configuration always differ there, so
    /// a comparison does not name them as a difference.
    /// </summary>
    IReadOnlySet<string> InstanceSettings { get; }

    /// <summary>What <c>probe pack --redact</c> must know of this engine: its own words and its connection-string keys.</summary>
    RedactionRules Redaction { get; }
}
