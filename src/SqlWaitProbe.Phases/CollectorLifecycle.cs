using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Phases;

/// <summary>Starts and stops a phase's collectors together; one failing collector never stops the others.</summary>
internal static class CollectorLifecycle
{
    /// <summary>Starts every collector; those that started go into <paramref name="started"/>, failures into <paramref name="outcomes"/>.</summary>
    public static async Task StartAsync(IReadOnlyList<ICollector> collectors, PhaseContext context, List<ICollector> started, List<CollectorOutcome> outcomes, Func<string, string> redact, CancellationToken cancellationToken)
    {
        await Task.WhenAll(collectors.Select(async c =>
        {
            try
            {
                await c.StartAsync(context, cancellationToken);
                lock (started)
                {
                    started.Add(c);
                }
            }
            catch (Exception e) when (e is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
            {
                var error = redact(e.Message);
                Log.Warning("collector {Collector} did not start: {Error}", c.Name, error);
                lock (outcomes)
                {
                    outcomes.Add(new CollectorOutcome(c.Name, CollectorStatus.Failed, 0, error));
                }
            }
        }));
    }

    /// <summary>Stops the started collectors within <paramref name="limit"/> and adds their outcomes.</summary>
    public static async Task StopAsync(List<ICollector> started, PhaseContext context, List<CollectorOutcome> outcomes, TimeSpan limit, Func<string, string> redact, bool interrupted = false)
    {
        // Collectors stop on their own clock: the capture's token may already be cancelled by Ctrl+C.
        using var budget = new CancellationTokenSource(limit);
        await Task.WhenAll(started.Select(async c =>
        {
            CollectorOutcome outcome;
            try
            {
                outcome = await c.StopAsync(context, budget.Token);
            }
            catch (Exception e)
            {
                var error = redact(e.Message);
                Log.Warning("collector {Collector} failed while stopping: {Error}", c.Name, error);
                outcome = new CollectorOutcome(c.Name, CollectorStatus.Failed, 0, error);
            }

            lock (outcomes)
            {
                outcomes.Add(outcome);
            }
        }));
        if (interrupted)
        {
            return;
        }

        foreach (var after in started.OfType<IAfterPhase>())
        {
            try
            {
                await after.AfterPhaseAsync(context, budget.Token);
            }
            catch (Exception e)
            {
                Log.Warning("collector {Collector} failed after the phase: {Error}", ((ICollector)after).Name, redact(e.Message));
            }
        }
    }
}
