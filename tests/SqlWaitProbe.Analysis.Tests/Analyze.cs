using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>Writes a crafted bundle and analyses it.</summary>
internal static class Analyze
{
    public static AnalysisResult Crafted(CraftedBundle crafted, string? focus = null)
    {
        using var bundle = CaptureBundle.Open(crafted.Write());
        return BundleAnalyzer.Analyze(bundle, Registered.Analysis, focus: focus);
    }
}
