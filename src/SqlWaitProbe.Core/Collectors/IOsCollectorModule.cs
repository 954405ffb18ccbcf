using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>A collector of the machine the server runs on (perf, <c>/proc</c>, ETW, PDH), registered in its OS's catalog.</summary>
public interface IOsCollectorModule : ICollectorModule
{
    /// <summary>Whether it starts before the engine's collectors or after them.</summary>
    CollectorStage Stage { get; }

    /// <summary>The input error in its options on this OS (exit 2), or null; its options' own checks have already run.</summary>
    string? Validate(OptionValues options) => null;

    /// <summary>Why a capture must not start (exit 1): the user named this collector and this machine cannot run it.</summary>
    string? Refusal(OptionValues options) => null;

    /// <summary>Whether it runs in this capture, and what it does; several for a module that records several outputs in one session.</summary>
    IReadOnlyList<CollectorChoice> Choose(OsSetup setup);

    /// <summary>
    /// Fresh collectors for one phase, one per choice of <see cref="Choose"/>; a choice that does not run becomes a
    /// collector that records why.
    /// </summary>
    IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup);
}
