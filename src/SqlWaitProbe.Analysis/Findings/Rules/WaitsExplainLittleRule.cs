using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>waits-explain-little</c>: the database's waits cover little of the sessions' time.</summary>
public sealed class WaitsExplainLittleRule : CaptureRule
{
    /// <summary>Waits explaining less than this share of session time fire the rule.</summary>
    public const double WaitsShare = 0.20;

    /// <summary>Unaccounted time (neither waits nor CPU) at or above this share of session time is time that is missing.</summary>
    public const double MissingShare = 0.20;

    /// <summary>Waits below this share of session time, with time missing, make the finding critical.</summary>
    public const double CriticalWaitsShare = 0.10;

    /// <inheritdoc/>
    public override string Id => "waits-explain-little";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        if (!l.WaitsCaptured || l.SessionSeconds <= 0)
        {
            return null;
        }

        var share = l.WaitSeconds / l.SessionSeconds;
        if (share >= WaitsShare)
        {
            return null;
        }

        List<string> evidence =
        [
            $"session time {F(l.SessionSeconds)} s [{l.SessionSource}]", $"waits {F(l.WaitSeconds)} s [waits.csv]",
            $"CPU {F(l.CpuSeconds)} s [{l.CpuSource}]", $"unaccounted {F(l.UnaccountedSeconds)} s [session − waits − CPU]",
        ];
        var missing = l.UnaccountedSeconds / l.SessionSeconds;
        if (l.CpuCaptured && missing < MissingShare)
        {
            // The rest is CPU: the waits are not where the time went, but nothing is missing either. Whether that CPU is
            // a problem is for the growth and module findings to say.
            return Create(Severities.Info, l.Phase,
                $"In {l.Phase}, waits explain {Pct(share)} of session time and CPU {Pct(l.CpuSeconds / l.SessionSeconds)}: the stacks, not the waits, show where the time goes",
                [.. evidence],
                $"read the CPU stacks of {l.Phase} (the modules table, the call paths and flamegraph-{l.Phase}.svg), not the waits");
        }

        var named = l.OffCpu is { } off ? off.OutsideMs / 1000 / l.SessionSeconds : 0;
        return Create(share < CriticalWaitsShare ? Severities.Critical : Severities.Warning, l.Phase,
            l.CpuCaptured
                ? $"In {l.Phase}, {Pct(missing)} of session time is neither waits ({Pct(share)}) nor CPU ({Pct(l.CpuSeconds / l.SessionSeconds)})"
                    + (named >= WaitsShare ? $"; off-CPU stacks name {Pct(named)} (offcpu-blocked)" : "")
                : $"In {l.Phase}, waits explain {Pct(share)} of session time; {Pct(1 - share)} is CPU or unaccounted (CPU was not captured)",
            [.. evidence],
            !l.CpuCaptured ? "capture again where the server's CPU can be read (local server, perf or /proc) to split the rest into CPU and missing time"
                : l.OffCpu is null ? "capture again with --offcpu on to see the kernel stacks the sessions were blocked in"
                : $"read the off-CPU table of {l.Phase} and flamegraph-offcpu-{l.Phase}.svg for where the sessions were blocked");
    }
}
