using SqlWaitProbe.Core.Collectors;

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
        var setup = new OsSetup
        {
            Options = request.Values,
            ServerProcess = engine.ServerProcess,
            ServerIsLocal = engine.LooksLocal,
            ProcessPerSession = engine.ProcessPerSession,
            PhaseSeconds = request.Plan.Duration?.TotalSeconds,
        };
        foreach (var choice in request.OsCollectors.Choose(setup).SelectMany(m => m.Choices))
        {
            output.WriteLine("  " + choice.Description);
        }
    }
}
