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

        // In the catalog's order, not the order they finished starting: their after-phase work runs in this order.
        var order = collectors.ToList();
        started.Sort((a, b) => order.IndexOf(a).CompareTo(order.IndexOf(b)));
    }

    /// <summary>
    /// How long past its budget an interrupted phase waits for a collector that does not honour its token. After a
    /// signal the whole stop must fit in the invocation's grace; a collector still stopping then is left behind and
    /// named (its processes belong to the run scope, which kills them when the command ends).
    /// </summary>
    internal static readonly TimeSpan LateStop = TimeSpan.FromMilliseconds(500);

    /// <summary>Stops the started collectors within <paramref name="limit"/> and adds their outcomes.</summary>
    public static async Task StopAsync(List<ICollector> started, PhaseContext context, List<CollectorOutcome> outcomes, TimeSpan limit, Func<string, string> redact, bool interrupted = false)
    {
        // Collectors stop on their own clock: the capture's token may already be cancelled by Ctrl+C.
        using var budget = new CancellationTokenSource(limit);
        var stopped = new HashSet<ICollector>();
        var closed = false;
        var all = Task.WhenAll(started.Select(async c =>
        {
            CollectorOutcome outcome;
            var clock = System.Diagnostics.Stopwatch.StartNew();
            try
            {
                outcome = await c.StopAsync(context, budget.Token);
                Log.Debug("collector {Collector} stopped in {Seconds:0.000} s: {Status}", c.Name, clock.Elapsed.TotalSeconds, outcome.Status);
            }
            catch (Exception e)
            {
                var error = redact(e.Message);
                Log.Warning("collector {Collector} failed while stopping: {Error}", c.Name, error);
                outcome = new CollectorOutcome(c.Name, CollectorStatus.Failed, 0, error);
            }

            lock (outcomes)
            {
                if (!closed)
                {
                    stopped.Add(c);
                    outcomes.Add(outcome);
                }
            }
        }));
        if (interrupted)
        {
            if (await Task.WhenAny(all, Task.Delay(limit + LateStop, CancellationToken.None)) != all)
            {
                lock (outcomes)
                {
                    closed = true;
                    context.Close();
                    foreach (var late in started.Where(c => !stopped.Contains(c)))
                    {
                        var seconds = limit.TotalSeconds.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture);
                        Log.Warning("collector {Collector} had not stopped {Seconds} s after the signal; left behind", late.Name, seconds);
                        outcomes.Add(new CollectorOutcome(late.Name, CollectorStatus.Failed, 0, $"had not stopped {seconds} s after the signal; its files may be missing or partial"));
                    }
                }
            }

            return;
        }

        await all;
        foreach (var after in started.OfType<IAfterPhase>())
        {
            var clock = System.Diagnostics.Stopwatch.StartNew();
            try
            {
                var result = await after.AfterPhaseAsync(context, budget.Token);
                Log.Debug("collector {Collector} finished its after-phase work in {Seconds:0.000} s", ((ICollector)after).Name, clock.Elapsed.TotalSeconds);
                if (result is { } replaced)
                {
                    var i = outcomes.FindIndex(o => o.Name == replaced.Name);
                    if (i >= 0)
                    {
                        outcomes[i] = replaced;
                    }
                    else
                    {
                        outcomes.Add(replaced);
                    }
                }
            }
            catch (Exception e)
            {
                Log.Warning("collector {Collector} failed after the phase: {Error}", ((ICollector)after).Name, redact(e.Message));
            }
        }
    }
}
