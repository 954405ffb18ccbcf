using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Reporting;

namespace SqlWaitProbe.Capture;

/// <summary>The steps every capture (PostgreSQL or SQL Server) ends with: the failure line, the error to raise, the report.</summary>
public static class CaptureEnding
{
    /// <summary>The one-line reason recorded in the manifest for a capture that failed with <paramref name="failure"/>.</summary>
    public static string FailureReason(Exception failure) => failure switch
    {
        EnvironmentProblemException env => env.OneLine,
        BadInputException bad => bad.OneLine,
        _ => failure.Message.Split('\n')[0],
    };

    /// <summary>
    /// How a capture that threw <paramref name="e"/> ends: interrupted when it was cancelled (reason
    /// <paramref name="interruptReason"/>) or when the disk filled while a file was being written (reason
    /// <c>disk</c>: the free-space watch was too slow, the half-written file gave its space back, and the bundle keeps
    /// what was written before); failed otherwise, with <see cref="FailureReason"/> passed through
    /// <paramref name="redact"/>.
    /// </summary>
    public static (string Status, string Reason, Exception? Failure) Decide(Exception e, bool cancelled, string interruptReason, Func<string, string>? redact = null)
    {
        if (e is OperationCanceledException && cancelled)
        {
            return (BundleStatus.Interrupted, interruptReason, null);
        }

        if (DiskFull.Is(e))
        {
            Log.Warning("the disk filled while the capture was writing ({Error}); the files written before are kept", e.Message);
            return (BundleStatus.Interrupted, "disk", null);
        }

        Log.Debug(e, "capture failed");
        var reason = FailureReason(e);
        return (BundleStatus.Failed, redact is null ? reason : redact(reason), e);
    }

    /// <summary>Rethrows a capture failure as the error the user sees (exit 2 for input, 1 for everything else).</summary>
    public static void ThrowIfFailed(Exception? failure, string? reason)
    {
        if (failure is EnvironmentProblemException or BadInputException)
        {
            throw failure;
        }

        if (failure is not null)
        {
            throw new EnvironmentProblemException("capture failed: " + reason, null, failure);
        }
    }

    /// <summary>
    /// Builds the report into <c>BUNDLE/report</c> unless skipped; an interrupted capture is still analysed (the
    /// signal that interrupted it must not cancel its report). Returns the folder and the findings, or (null, []).
    /// </summary>
    public static async Task<(string? Folder, IReadOnlyList<string> Findings)> AnalyseAsync(string bundleRoot, bool skip, string status, IProgress<string> progress, CancellationToken cancellationToken)
    {
        if (skip)
        {
            return (null, []);
        }

        var folder = Path.Combine(bundleRoot, BundlePaths.ReportFolder);
        using var bundle = CaptureBundle.Open(bundleRoot);
        progress.Report("analysing the bundle");
        try
        {
            var findings = await ReportBuilder.BuildAsync(bundle, folder, progress, status == BundleStatus.Interrupted ? CancellationToken.None : cancellationToken);
            return (folder, findings);
        }
        catch (Exception e) when (DiskFull.Is(e))
        {
            // The bundle is whole and says how the capture ended; only its report did not fit. A half-written report
            // is removed, so what is there is never mistaken for the whole; `probe analyze` makes it later.
            Log.Warning("the disk filled while the report was written ({Error}); the report is left out", e.Message);
            TryDelete(folder);
            progress.Report($"no report: the disk is full; free some space, then run: probe analyze {bundleRoot}");
            return (null, []);
        }
    }

    private static void TryDelete(string folder)
    {
        if (Core.Files.FolderRemoval.TryDelete(folder) is { } error)
        {
            Log.Warning("could not remove the partial report {Folder}: {Error}", folder, error);
        }
    }
}
