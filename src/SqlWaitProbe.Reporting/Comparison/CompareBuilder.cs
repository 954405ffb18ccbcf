using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>Opens and analyses each bundle through the bundle reader (as <c>probe analyze</c> does), compares them and writes the report.</summary>
public static class CompareBuilder
{
    /// <summary>
    /// Compares the bundles at <paramref name="paths"/> (folders or .zip) into <paramref name="outputFolder"/>.
    /// <paramref name="labels"/> names the columns (null: from what differs between the captures' configurations).
    /// Returns the comparison, the files written and the outputs that could not be written (the others were). Each bundle
    /// is verified as <c>probe analyze</c> verifies it; <paramref name="noVerify"/> sets damaged files aside instead.
    /// </summary>
    public static Task<(ComparisonResult Result, IReadOnlyList<string> Files, IReadOnlyList<string> Failures)> BuildAsync(IReadOnlyList<string> paths, IReadOnlyList<string>? labels, string? phase, string outputFolder, ReportOptions options, IProgress<string> progress, CancellationToken cancellationToken, bool noVerify = false) =>
        Task.Run(() =>
        {
            if (paths.Count < 2)
            {
                throw new BadInputException("compare needs at least two capture bundles, e.g. probe compare before/ after/ -o cmp");
            }

            if (labels is not null && labels.Count != paths.Count)
            {
                throw new BadInputException($"--label gives {labels.Count} label(s) for {paths.Count} bundles; give one per bundle, comma-separated, in the bundles' order");
            }

            if (labels is not null && labels.Distinct(StringComparer.Ordinal).Count() != labels.Count)
            {
                throw new BadInputException("--label: every label must differ, since columns and file names are named by them");
            }

            // Every bundle is opened and checked before any is analysed, so a wrong path or a damaged bundle is the one
            // line a user sees, not the end of a screen of another bundle's progress.
            var bundles = new List<CaptureBundle>();
            var analyses = new List<AnalysisResult>();
            try
            {
                foreach (var path in paths)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    var bundle = CaptureBundle.Open(path, cancellationToken: cancellationToken);
                    bundles.Add(bundle);
                    bundle.Verify(noVerify);
                }

                for (var i = 0; i < bundles.Count; i++)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    progress.Report($"analysing {paths[i]}");
                    analyses.Add(BundleAnalyzer.Analyze(bundles[i], options.Modules, options.ExtraTags, null, progress, cancellationToken));
                }
            }
            finally
            {
                foreach (var bundle in bundles)
                {
                    bundle.Dispose();
                }
            }

            var names = paths.Select(p => Path.GetFileName(Path.TrimEndingDirectorySeparator(p)) is { Length: > 0 } n ? StripZip(n) : p).ToArray();
            var chosen = labels ?? CaptureConfiguration.Labels(analyses.Select(a => a.Manifest).ToArray(), names, k => analyses.Any(a => a.InstanceSettings.Contains(k)));
            var captures = analyses.Select((a, i) => new ComparedCapture(chosen[i], names[i], a)).ToArray();
            progress.Report("comparing");
            var result = CaptureComparer.Compare(captures, phase);
            var (files, failures) = CompareReport.Write(result, outputFolder, options, progress, cancellationToken);
            return (result, files, failures);
        }, cancellationToken);

    private static string StripZip(string name) => name.EndsWith(".zip", StringComparison.OrdinalIgnoreCase) ? name[..^4] : name;
}
