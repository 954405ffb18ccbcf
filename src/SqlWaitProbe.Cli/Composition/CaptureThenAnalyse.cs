using System.Diagnostics;
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
        // When a signal interrupts the capture, the invocation ends within its grace whatever runs then: the report
        // of the interrupted bundle gets what is left of it, so it is never cut off half-written.
        long signalled = 0;
        using var signal = cancellationToken.Register(() => Interlocked.CompareExchange(ref signalled, Stopwatch.GetTimestamp(), 0));
        var outcome = await CaptureSession.RunAsync(request, log, error, progress, cancellationToken);
        if (request.NoAnalyze)
        {
            return outcome;
        }

        var since = Interlocked.Read(ref signalled);
        TimeSpan? left = since == 0 ? null : ReportAfterSignal - Stopwatch.GetElapsedTime(since);
        var (folder, findings, attach) = await AnalyseAsync(outcome.BundleRoot, outcome.Status, progress, cancellationToken, left);
        return outcome with { ReportFolder = folder, Findings = findings, AttachLines = attach };
    }

    /// <summary>
    /// The part of the grace after a signal by which an interrupted capture's report must be written: the rest is the
    /// summary, the log's last lines and the process's exit.
    /// </summary>
    internal static readonly TimeSpan ReportAfterSignal = TerminationSignals.Grace - TimeSpan.FromSeconds(1.5);

    /// <summary>
    /// Builds the report into <c>BUNDLE/report</c>. An interrupted capture is still analysed: the signal that interrupted
    /// it must not cancel its report. Returns the folder and the findings, or (null, []) when the disk filled.
    /// </summary>
    public static async Task<(string? Folder, IReadOnlyList<string> Findings, IReadOnlyList<string> Attach)> AnalyseAsync(string bundleRoot, string status, IProgress<string> progress, CancellationToken cancellationToken, TimeSpan? timeLeft = null)
    {
        var folder = Path.Combine(bundleRoot, BundlePaths.ReportFolder);
        if (timeLeft is { } none && none <= TimeSpan.Zero)
        {
            return NoTimeLeft(bundleRoot, folder, progress);
        }

        using var bundle = CaptureBundle.Open(bundleRoot);
        progress.Report("analysing the bundle");
        using var deadline = new CancellationTokenSource();
        if (timeLeft is { } left)
        {
            deadline.CancelAfter(left);
        }

        try
        {
            var token = status == BundleStatus.Interrupted ? deadline.Token : cancellationToken;
            var result = await ReportBuilder.BuildReportAsync(bundle, folder, new ReportOptions { Modules = Registered.Analysis }, progress, token);
            var attach = result.Analysis.Ledgers.Where(l => l.IsAttach).SelectMany(l => new[] { $"{l.Phase}: {l.Headline}", $"{l.Phase}: {l.Equation}" }).ToArray();
            return (folder, ReportBuilder.SummaryFindings(result.Analysis), attach);
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested)
        {
            return NoTimeLeft(bundleRoot, folder, progress);
        }
        catch (Exception e) when (DiskFull.Is(e))
        {
            // The bundle is whole and says how the capture ended; only its report did not fit. A half-written report
            // is removed, so what is there is never mistaken for the whole; `probe analyze` makes it later.
            Log.Warning("the disk filled while the report was written ({Error}); the report is left out", e.Message);
            RemovePartial(folder);
            progress.Report($"no report: the disk is full; free some space, then run: probe analyze {bundleRoot}");
            return (null, [], []);
        }
    }

    private static (string? Folder, IReadOnlyList<string> Findings, IReadOnlyList<string> Attach) NoTimeLeft(string bundleRoot, string folder, IProgress<string> progress)
    {
        Log.Warning("the report of the interrupted capture did not fit in the {Seconds:0} s a signal leaves; it is left out", TerminationSignals.Grace.TotalSeconds);
        RemovePartial(folder);
        progress.Report($"no report: the capture was interrupted and its report did not fit in the time a signal leaves; run: probe analyze {bundleRoot}");
        return (null, [], []);
    }

    private static void RemovePartial(string folder)
    {
        if (FolderRemoval.TryDelete(folder) is { } removal)
        {
            Log.Warning("could not remove the partial report {Folder}: {Error}", folder, removal);
        }
    }
}
