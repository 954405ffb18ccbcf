using SqlWaitProbe.Analysis.Correlation;
using SqlWaitProbe.Analysis.Findings;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis;

/// <summary>Everything the analysis of one bundle produced; reports render it.</summary>
public sealed record AnalysisResult
{
    /// <summary>The bundle's manifest.</summary>
    public required BundleManifest Manifest { get; init; }

    /// <summary>Phases as read, in the order they ran.</summary>
    public required IReadOnlyList<PhaseData> Phases { get; init; }

    /// <summary>One ledger per phase, same order.</summary>
    public required IReadOnlyList<PhaseLedger> Ledgers { get; init; }

    /// <summary>The next steps the bundle's engine gives where a finding needs its own tools (from its registered module).</summary>
    public required Core.Engines.EngineAdvice Advice { get; init; }

    /// <summary>The manifest's configuration entries that name the server instance rather than configure it (from the engine's registered module).</summary>
    public required IReadOnlySet<string> InstanceSettings { get; init; }

    /// <summary>Baseline → load module growth (empty without both).</summary>
    public IReadOnlyList<GrowthRow> Growth { get; init; } = [];

    /// <summary>Module growth from the baseline to every other phase (sweep levels included), in the order the phases ran.</summary>
    public IReadOnlyList<(string Phase, IReadOnlyList<GrowthRow> Rows)> GrowthByPhase { get; init; } = [];

    /// <summary>Scalability table, by threads.</summary>
    public IReadOnlyList<ScalabilityRow> Scalability { get; init; } = [];

    /// <summary>The module whose per-execution cost grows fastest, or null.</summary>
    public GrowthRow? FastestGrowing { get; init; }

    /// <summary>Call paths into <see cref="CallPathsModule"/> in the load phase.</summary>
    public IReadOnlyList<CallPath> CallPathsIntoFastest { get; init; } = [];

    /// <summary>
    /// The module the call paths lead into: <see cref="FastestGrowing"/> when per-execution CPU grew materially, else the
    /// heaviest module of the load phase; null without stacks.
    /// </summary>
    public string? CallPathsModule { get; init; }

    /// <summary>Why <see cref="CallPathsModule"/> was chosen, for the reports' heading (e.g. <c>fastest-growing module</c>).</summary>
    public string CallPathsWhy { get; init; } = "";

    /// <summary>Strong kernel-CPU correlations.</summary>
    public IReadOnlyList<SeriesCorrelationResult> Correlations { get; init; } = [];

    /// <summary>Callers/callees of the focus pattern per phase, when asked for.</summary>
    public IReadOnlyList<(string Phase, CallerCalleeResult View)> Focus { get; init; } = [];

    /// <summary>Each phase's statements and blocking, for the phases whose bundle files have them, in the order the phases ran.</summary>
    public IReadOnlyList<Statements.PhaseStatements> Statements { get; init; } = [];

    /// <summary>How the bundle's engine measures an attach capture's sessions, for the Method section; null when the engine is not known to this build.</summary>
    public string? EngineAttachMethod { get; init; }

    /// <summary>Findings, most severe first.</summary>
    public IReadOnlyList<Finding> Findings { get; init; } = [];

    /// <summary>One verdict per phase, from the findings, in the order the phases ran.</summary>
    public IReadOnlyList<PhaseVerdict> Verdicts { get; init; } = [];

    /// <summary>The collector modules' own report sections, in registration order.</summary>
    public IReadOnlyList<EvidenceSection> ModuleSections { get; init; } = [];

    /// <summary>Data-quality notes (also as findings when serious).</summary>
    public IReadOnlyList<string> DataQuality { get; init; } = [];

    /// <summary>The baseline phase's ledger, or null.</summary>
    public PhaseLedger? Baseline => Ledgers.FirstOrDefault(l => l.Phase == PhaseNames.Baseline);

    /// <summary>The load phase's ledger (or the phase with most threads), or null.</summary>
    public PhaseLedger? Load => Ledgers.FirstOrDefault(l => l.Phase == PhaseNames.Load) ?? Ledgers.Where(l => l.Phase != PhaseNames.Baseline).OrderByDescending(l => l.Threads).FirstOrDefault();

    /// <summary>The phase data of a ledger.</summary>
    public PhaseData PhaseOf(PhaseLedger ledger) => Phases.First(p => p.Name == ledger.Phase);
}
