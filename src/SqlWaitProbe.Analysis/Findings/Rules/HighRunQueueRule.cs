using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>high-run-queue</c>: sessions spent a material part of their time runnable, waiting for a CPU.</summary>
public sealed class HighRunQueueRule : CaptureRule
{
    /// <summary>Run-queue (or signal-wait) time at or above this share of session time fires the rule.</summary>
    public const double RunQueueShare = 0.10;

    /// <summary>At or above this share the finding is critical.</summary>
    public const double CriticalShare = 0.30;

    /// <inheritdoc/>
    public override string Id => "high-run-queue";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    /// <remarks>Time in the run queue is the unaccounted time <c>waits-explain-little</c> would call missing; what remains beyond it is <c>offcpu-recommended</c>'s.</remarks>
    public override IReadOnlyCollection<string> Subsumes { get; } = ["waits-explain-little"];

    /// <summary>Seconds the sessions spent runnable (the larger of the OS's run queue and the engine's signal waits), and where that came from.</summary>
    public static (double Seconds, string Source) RunnableSeconds(PhaseLedger l)
    {
        var rqCause = l.UnaccountedCauses.FirstOrDefault(c => c.Cause == TimeLedger.RunQueue);
        var rq = rqCause?.Seconds ?? 0;
        var signal = l.Waits.Sum(w => w.SignalSeconds);
        return rq >= signal ? (rq, rqCause?.Source ?? "sessions.csv run_queue_ms") : (signal, "waits.csv signal_ms");
    }

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var (seconds, source) = RunnableSeconds(l);
        if (l.SessionSeconds <= 0 || seconds / l.SessionSeconds < RunQueueShare)
        {
            return null;
        }

        return Create(seconds / l.SessionSeconds >= CriticalShare ? Severities.Critical : Severities.Warning, l.Phase,
            $"In {l.Phase}, sessions spent {Pct(seconds / l.SessionSeconds)} of their time runnable but waiting for a CPU",
            [$"{F(seconds)} s of {F(l.SessionSeconds)} s session time [{source}]", $"{l.WatchedSessions ?? l.Threads} sessions"],
            "find what else used the CPUs in the all-process flame graph, or capture again on an idle machine");
    }
}
