using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// A kind of evidence the probe can collect, as one unit: its options, the bundle files it writes, how it decides
/// whether it can run and how it makes its collector. It is registered once, in its platform's or its engine's
/// catalog; the analysis side of a module (reading its files, its report section) is
/// <c>SqlWaitProbe.Analysis.IAnalysisModule</c>, which the same class may implement.
/// </summary>
public interface ICollectorModule
{
    /// <summary>The module's name; its collector's name in the manifest.</summary>
    string Name { get; }

    /// <summary>The options it declares (added to <c>probe capture</c>).</summary>
    IReadOnlyList<IOptionSpec> Options { get; }
}
