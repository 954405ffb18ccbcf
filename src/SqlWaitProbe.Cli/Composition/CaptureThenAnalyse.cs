using Serilog;
using SqlWaitProbe.Capture;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Reporting;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>
/// A capture followed by its report: the capture session knows nothing of analysis, so the command line, which
/// references both, runs one after the other.
/// </summary>
public static class CaptureThenAnalyse
{
    /// <summary>
    /// The capture <paramref name="options"/> ask for: the engine (passwords asked on <paramref name="console"/>), this
    /// machine's OS collectors, and the run scope both share; every bad value is refused here, before anything starts.
    /// </summary>
    public static CaptureRequest Request(OptionValues options, IProbeConsole console)
    {
        var scope = RunScope.NewCapture();
        return CaptureRequest.Build(options, EngineCatalog.Create(options, console, scope), Registered.OsCollectors, scope);
    }

    /// <summary>
    /// Runs <paramref name="request"/>, then analyses the bundle into <c>BUNDLE/report</c> unless the request says not
    /// to. A failed capture throws before any analysis, as it always did.
    /// </summary>
    public static async Task<CaptureOutcome> RunAsync(CaptureRequest request, ICaptureLog log, TextWriter error, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var outcome = await CaptureSession.RunAsync(request, log, error, progress, cancellationToken);
        if (request.NoAnalyze)
        {
            return outcome;
        }

        var (folder, findings, attach) = await AnalyseAsync(outcome.BundleRoot, outcome.Status, progress, cancellationToken);
        return outcome with { ReportFolder = folder, Findings = findings, AttachLines = attach };
    }

    /// <summary>
    /// Builds the report into <c>BUNDLE/report</c>. An interrupted capture is still analysed: the signal that interrupted
    /// it must not cancel its report. Returns the folder and the findings, or (null, []) when the disk filled.
    /// </summary>
    public static async Task<(string? Folder, IReadOnlyList<string> Findings, IReadOnlyList<string> Attach)> AnalyseAsync(string bundleRoot, string status, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var folder = Path.Combine(bundleRoot, BundlePaths.ReportFolder);
        using var bundle = CaptureBundle.Open(bundleRoot);
        progress.Report("analysing the bundle");
        try
        {
            var result = await ReportBuilder.BuildReportAsync(bundle, folder, new ReportOptions { Modules = Registered.Analysis }, progress, status == BundleStatus.Interrupted ? CancellationToken.None : cancellationToken);
            var attach = result.Analysis.Ledgers.Where(l => l.IsAttach).SelectMany(l => new[] { $"{l.Phase}: {l.Headline}", $"{l.Phase}: {l.Equation}" }).ToArray();
            return (folder, ReportBuilder.SummaryFindings(result.Analysis), attach);
        }
        catch (Exception e) when (DiskFull.Is(e))
        {
            // The bundle is whole and says how the capture ended; only its report did not fit. A half-written report
            // is removed, so what is there is never mistaken for the whole; `probe analyze` makes it later.
            Log.Warning("the disk filled while the report was written ({Error}); the report is left out", e.Message);
            if (FolderRemoval.TryDelete(folder) is { } removal)
            {
                Log.Warning("could not remove the partial report {Folder}: {Error}", folder, removal);
            }

            progress.Report($"no report: the disk is full; free some space, then run: probe analyze {bundleRoot}");
            return (null, [], []);
        }
    }
}
