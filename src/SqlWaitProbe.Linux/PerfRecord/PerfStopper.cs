using System.Diagnostics;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>Stops a running perf record the way that keeps its data: SIGINT, then SIGKILL if it does not finish.</summary>
public static class PerfStopper
{
    /// <summary>
    /// Sends SIGINT to <paramref name="perf"/> and waits up to 10 s for it to write its file and exit; true when it
    /// did, false when it had to be killed (its data is then lost).
    /// </summary>
    public static async Task<bool> InterruptAsync(Process perf, CancellationToken cancellationToken)
    {
        Signals.Send(perf.Id, Signals.Interrupt);
        using var wait = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        wait.CancelAfter(TimeSpan.FromSeconds(10));
        try
        {
            await perf.WaitForExitAsync(wait.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            Signals.Send(perf.Id, Signals.Kill);
            return false;
        }
    }
}
