using System.Diagnostics;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Linux.Proc;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests;

/// <summary>
/// The backend-CPU collector's status when a backend ends without the engine's sampler saying so, with a real process
/// standing for the backend: inside the window its tail is lost (partial); after the window closed, when a client that
/// connects per transaction leaves while the collectors stop, nothing of the window is lost (ok).
/// </summary>
public sealed class BackendCpuEndTests
{
    [Theory]
    [InlineData(true, CollectorStatus.Ok)]
    [InlineData(false, CollectorStatus.Partial)]
    public async Task A_backend_gone_unannounced_makes_the_collector_partial_only_when_it_went_inside_the_window(bool afterWindow, string expected)
    {
        using var backend = Process.Start("sleep", "30");
        try
        {
            var phase = new PhaseContext(PhaseNames.Attach, 0, TestData.TempFolder(), [new(1, backend.Id, null)]);
            var collector = new BackendCpuCollector();
            await collector.StartAsync(phase, CancellationToken.None);
            phase.StartUtc = DateTime.UtcNow;

            // The window's end is a fact of the phase: before the backend goes, or (still open) after.
            phase.EndUtc = afterWindow ? DateTime.UtcNow : DateTime.UtcNow.AddHours(1);
            backend.Kill();
            await backend.WaitForExitAsync();
            var outcome = await collector.StopAsync(phase, CancellationToken.None);
            Assert.True(outcome.Status == expected, $"{outcome.Status}: {outcome.Error}");
        }
        finally
        {
            if (!backend.HasExited)
            {
                backend.Kill();
            }
        }
    }
}
