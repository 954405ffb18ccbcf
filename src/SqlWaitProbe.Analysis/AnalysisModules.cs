using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Waits;

namespace SqlWaitProbe.Analysis;

/// <summary>
/// What the analysis takes from the registered modules: each engine's stack tags, and the collector modules that read
/// their own files into a phase and add their report sections. The lists are handed in by whoever composes the probe
/// (the command line, a test), so this project names no engine and no collector.
/// </summary>
/// <param name="Engines">The registered engines.</param>
/// <param name="Collectors">The collector modules with an analysis side, of every OS and engine (a bundle is read anywhere).</param>
public sealed record AnalysisModules(IReadOnlyList<IEngineModule> Engines, IReadOnlyList<IAnalysisModule> Collectors)
{
    /// <summary>
    /// The stack tags for a bundle of <paramref name="engine"/>; every registered engine's tags together for an engine
    /// this build does not know, so an unknown bundle is still tagged as well as it can be.
    /// </summary>
    public StackTagSet TagsFor(string engine) =>
        Engines.FirstOrDefault(e => e.Name == engine)?.StackTags
        ?? Engines.Select(e => e.StackTags).Aggregate((all, one) => all.Merge(one));

    /// <summary>
    /// How the waits of a bundle of <paramref name="engine"/> are classed: by that engine, or for an engine this build
    /// does not know by the first registered engine whose form the name has; a wait no engine knows is a resource wait.
    /// </summary>
    public Func<string, WaitClass> WaitClassesFor(string engine) =>
        Engines.FirstOrDefault(e => e.Name == engine) is { } known
            ? type => known.ClassOfWait(type) ?? WaitClass.Resource
            : type => Engines.Select(e => e.ClassOfWait(type)).FirstOrDefault(c => c is not null) ?? WaitClass.Resource;

    /// <summary>How an attach capture of <paramref name="engine"/> measures its sessions (<see cref="IEngineModule.AttachMethod"/>); null for an engine this build does not know.</summary>
    public string? AttachMethodFor(string engine) => Engines.FirstOrDefault(e => e.Name == engine)?.AttachMethod;

    /// <summary>
    /// The next steps a finding about a bundle of <paramref name="engine"/> gives where they need the engine's own tools:
    /// that engine's, or for an engine this build does not know the first registered engine's (the default of
    /// <c>--engine</c>), as findings of such bundles always read.
    /// </summary>
    public EngineAdvice AdviceFor(string engine) =>
        (Engines.FirstOrDefault(e => e.Name == engine) ?? Engines[0]).Advice;

    /// <summary>
    /// The configuration entries of a bundle of <paramref name="engine"/> that name its server instance: that engine's,
    /// or for an engine this build does not know every registered engine's.
    /// </summary>
    public IReadOnlySet<string> InstanceSettingsFor(string engine) =>
        Engines.FirstOrDefault(e => e.Name == engine)?.InstanceSettings
        ?? Engines.SelectMany(e => e.InstanceSettings).ToHashSet(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// The server process of a bundle of <paramref name="engine"/> whose manifest names <paramref name="processName"/>:
    /// that engine's, or for an engine this build does not know the registered engine's of that process name; a process
    /// no engine knows is taken by its name alone.
    /// </summary>
    public EngineProcess ProcessFor(string engine, string processName)
    {
        var known = Engines.FirstOrDefault(e => e.Name == engine)?.Process
            ?? Engines.Select(e => e.Process).FirstOrDefault(p => processName.Length > 0 && p.Name.Equals(processName, StringComparison.OrdinalIgnoreCase));
        return known is null ? new EngineProcess(processName)
            : processName.Length == 0 || known.Name.Equals(processName, StringComparison.OrdinalIgnoreCase) ? known
            : known with { Name = processName };
    }
}
