using System.Globalization;
using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Runs a symbol lookup within a time budget, so a symbol server that is slow or unreachable never holds up the stop of
/// a capture: the lookup runs on a thread of its own with a token cancelled at the budget (checked between modules),
/// and the phase waits for it at most the budget and a short grace. A lookup stuck inside one download, which no
/// token reaches, is left behind and its names are not used: the stacks keep their module-level frames, already written,
/// and the trace stays in the bundle for a later look-up.
/// </summary>
public static class BoundedSymbolLookup
{
    /// <summary>
    /// 60 s per phase: the public server answers a PDB in seconds when reachable, and the stop budget (3 min) must still
    /// hold the trace's second read and the files.
    /// </summary>
    public static readonly TimeSpan DefaultBudget = TimeSpan.FromSeconds(60);

    /// <summary>Time a lookup cancelled at the budget gets to return what it has before it is left behind.</summary>
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(2);

    /// <summary>
    /// The lookup's answer if it comes within <paramref name="budget"/>, else no names and the reason. Ctrl+C
    /// (<paramref name="cancellationToken"/>) ends the wait at once with <see cref="OperationCanceledException"/>.
    /// </summary>
    public static (Func<EtlImage, ulong, string?>? Names, string Status) Run(EtlSymbolLookup lookup, EtlTraceReader reader, IReadOnlyList<string> modules,
        IReadOnlyDictionary<string, string> moduleFiles, TimeSpan budget, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(lookup);
        ArgumentNullException.ThrowIfNull(progress);
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(budget);
        var seconds = budget.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture);
        progress.Report($"loading symbols for {modules.Count} module(s), at most {seconds} s");
        var work = Task.Factory.StartNew(() => lookup(reader, modules, moduleFiles, limit.Token), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

        // A lookup left behind may still fail later; its exception is observed here so it is never rethrown anywhere.
        _ = work.ContinueWith(t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
        bool finished;
        try
        {
            finished = work.Wait(budget + Grace, cancellationToken);
        }
        catch (AggregateException e) when (e.InnerException is OperationCanceledException)
        {
            // The lookup saw a token between modules and gave up: Ctrl+C, or else the budget.
            cancellationToken.ThrowIfCancellationRequested();
            finished = false;
        }
        catch (AggregateException e) when (e.InnerException is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(e.InnerException);
            throw;
        }

        if (finished)
        {
            return work.Result;
        }

        cancellationToken.ThrowIfCancellationRequested();
        progress.Report($"symbol loading took longer than {seconds} s; the stacks keep module-level frames");
        return (null, $"not resolved: symbol loading did not finish within {seconds} s (a symbol server slow or unreachable); frames keep their module. "
            + "The trace is kept (cpu/trace.etl): PerfView or WPA name the functions later, and --offline reads the symbols that reached the cache");
    }
}
