using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis;

/// <summary>
/// The analysis side of a collector module: it reads the module's bundle files of one phase into the phase's data and,
/// where it has one, contributes a report section. The class that makes the collector usually implements this too, so
/// writer and reader stay in one folder; it is registered once, with its collector.
/// </summary>
public interface IAnalysisModule
{
    /// <summary>The module's name, as its collector's in the manifest.</summary>
    string Name { get; }

    /// <summary>
    /// <paramref name="phase"/> with what this module's files of that phase hold (unchanged when it wrote none). Bundle
    /// files are untrusted: a bad file is a <see cref="Core.Errors.BadInputException"/> naming it.
    /// </summary>
    PhaseData Read(PhaseData phase, CaptureBundle bundle, CancellationToken cancellationToken);

    /// <summary>The module's sections of the report, computed from the analysis; none by default.</summary>
    IEnumerable<EvidenceSection> Sections(AnalysisResult analysis) => [];
}
