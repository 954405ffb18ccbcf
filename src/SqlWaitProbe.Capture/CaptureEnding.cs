using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Capture;

/// <summary>The steps every capture (PostgreSQL or SQL Server) ends with: the failure line and the error to raise.</summary>
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
}
