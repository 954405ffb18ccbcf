using System.Globalization;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Analysis.Watch;

/// <summary>
/// The report section of a <c>probe watch</c> dump: which trigger fired, when (UTC), the value it measured against its
/// threshold, and how much of the time before and after the trigger the dump holds. It reads only the manifest (the
/// trigger and the attach window's span), so any dump shows it, whatever the engine.
/// </summary>
public sealed class WatchTriggerModule : IAnalysisModule
{
    /// <inheritdoc />
    public string Name => "watch-trigger";

    /// <inheritdoc />
    public PhaseData Read(PhaseData phase, CaptureBundle bundle, CancellationToken cancellationToken) => phase;

    /// <inheritdoc />
    public IEnumerable<EvidenceSection> Sections(AnalysisResult analysis)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        if (analysis.Manifest.Trigger is not { } t)
        {
            yield break;
        }

        yield return new EvidenceSection("watch-trigger", "Watch trigger", [Line(t, analysis.Manifest.Phases)], []);
    }

    /// <summary>The trigger line: what fired, when, its value against its threshold, and the kept span around it.</summary>
    public static string Line(BundleTrigger trigger, IReadOnlyList<BundlePhase> phases)
    {
        ArgumentNullException.ThrowIfNull(trigger);
        ArgumentNullException.ThrowIfNull(phases);
        var fired = trigger.FiredUtc.ToString("yyyy-MM-ddTHH:mm:ss", CultureInfo.InvariantCulture) + "Z (UTC)";
        var what = trigger.Kind == "manual"
            ? $"A dump was asked for from another shell (`probe watch --dump`) at {fired}."
            : $"`{trigger.Trigger}` fired at {fired}: {TriggerSpec.Figure(trigger.Value, trigger.Unit)} against its threshold of {TriggerSpec.Figure(trigger.Threshold, trigger.Unit)} ({Measures(trigger.Kind)}).";
        if (phases.Count == 0)
        {
            return what + " The dump holds no attach window.";
        }

        var s = (Start: phases.Min(p => p.StartUtc), End: phases.Max(p => p.EndUtc));

        var before = Seconds((trigger.FiredUtc - s.Start).TotalSeconds);
        var after = Seconds((s.End - trigger.FiredUtc).TotalSeconds);
        return what + string.Create(CultureInfo.InvariantCulture,
            $" The dump keeps {before} before it (--keep {Seconds(trigger.KeepSeconds)}) and {after} after it (--after {Seconds(trigger.AfterSeconds)}): {s.Start:yyyy-MM-ddTHH:mm:ss}Z – {s.End:yyyy-MM-ddTHH:mm:ss}Z (UTC).");
    }

    private static string Measures(string kind) => kind switch
    {
        "wait" => "the wait's share of the watched sessions' active time over the 10 s before",
        "runqueue" => "the watched sessions' time queued for a CPU as a share of their active time over the 10 s before",
        "cpu" => "the machine's CPU busy over the 10 s before",
        "blocked" => "the longest wait of a watched session behind another session's lock",
        "latency" => "the longest-running statement of a watched session",
        _ => "as the watch measured it",
    };

    private static string Seconds(double seconds) => seconds.ToString("0.#", CultureInfo.InvariantCulture) + " s";
}
