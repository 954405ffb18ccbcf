using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Experiments;

/// <summary>One variant's capture, as the experiment asks the command line to run it.</summary>
/// <param name="Variant">The variant.</param>
/// <param name="Index">1-based position among the variants.</param>
/// <param name="Output">The variant's bundle folder.</param>
/// <param name="Server">The server the capture connects to (<c>--server</c>).</param>
/// <param name="SessionStatements">Statements every workload session runs first (the variant's session settings).</param>
/// <param name="Manifest">What the bundle's manifest records of the experiment.</param>
public sealed record VariantCapture(ExperimentVariant Variant, int Index, string Output, string Server, IReadOnlyList<string> SessionStatements, BundleExperiment Manifest);
