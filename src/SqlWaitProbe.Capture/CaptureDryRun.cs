using SqlWaitProbe.Capture.Os;

namespace SqlWaitProbe.Capture;

/// <summary><c>probe capture --dry-run</c> for any engine: the engine's statements, then the OS collectors, connecting to nothing.</summary>
public static class CaptureDryRun
{
    /// <summary>Writes the plan to <paramref name="output"/>.</summary>
    public static async Task WriteAsync(CaptureRequest request, TextWriter output, CancellationToken cancellationToken)
    {
        var engine = request.Engine;
        output.WriteLine($"-- bundle: {request.Output}");
        await engine.WriteDryRunAsync(request.Plan, output, cancellationToken);
        output.WriteLine();
        output.WriteLine("OS collectors on this machine, per phase:");
        foreach (var choice in OsCollectorSelector.Select(request.Os, engine.ServerProcess, engine.LooksLocal, engine.ProcessPerSession, OsFacts.ThisMachine))
        {
            output.WriteLine("  " + choice.Description);
        }
    }
}
