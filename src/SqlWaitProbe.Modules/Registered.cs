using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Watch;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Linux;
using SqlWaitProbe.Postgres;
using SqlWaitProbe.SqlServer;
using SqlWaitProbe.Windows;

namespace SqlWaitProbe.Modules;

/// <summary>
/// What this build of the probe carries: the one list of registered engines. Nothing outside the engine projects names
/// an engine but this list; <c>probe capture</c>, <c>probe check</c>, <c>probe workloads</c>, <c>probe cleanup</c>,
/// completions, redaction and analysis all read it. An engine is added here with one line.
/// </summary>
public static class Registered
{
    /// <summary>The engines, in help order; the first is the default of <c>--engine</c>.</summary>
    public static IReadOnlyList<IEngineModule> Engines { get; } =
    [
        new PostgresModule(),
        new SqlServerModule(),
    ];

    /// <summary>The collectors of this machine's OS, with the other OS's options (still checked, and still in help).</summary>
    public static OsCollectorCatalog OsCollectors { get; } = OperatingSystem.IsWindows()
        ? new(WindowsCollectors.All, [.. LinuxCollectors.All.SelectMany(m => m.Options)])
        : new(LinuxCollectors.All, [.. WindowsCollectors.All.SelectMany(m => m.Options)]);

    /// <summary>
    /// What the analysis of a bundle takes from the registered modules; the watch's trigger section reads the manifest
    /// of a dump, not a collector's file, and is registered beside them.
    /// </summary>
    public static AnalysisModules Analysis { get; } = new(
        Engines,
        [.. LinuxCollectors.All.Concat(WindowsCollectors.All).Concat(Engines.SelectMany(e => e.Collectors)).OfType<IAnalysisModule>(), new WatchTriggerModule()]);

    /// <summary>Redaction rules of every registered engine together: a bundle may name another engine's words.</summary>
    public static RedactionRules Redaction { get; } = Engines.Select(e => e.Redaction).Aggregate(new RedactionRules(), (all, one) => all.Merge(one));

    /// <summary>Every option of <c>probe capture</c> that a module declares: the collectors' of every OS and the engines' own.</summary>
    public static IReadOnlyList<IOptionSpec> ModuleCaptureOptions { get; } = [.. OsCollectors.AllOptions, .. Engines.SelectMany(e => e.CaptureOptions)];
}
