using SqlWaitProbe.Capture;
using SqlWaitProbe.Cli.Commands;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Phases;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// The observer-effect column of the capture summary holds a ratio only with its interval; otherwise the reason is one
/// line under the table, on the screen, not in a log the user has to open.
/// </summary>
public sealed class CaptureSummaryOverheadTests
{
    [Fact]
    public void A_phase_whose_executions_outlast_the_pilot_says_on_screen_why_its_observer_effect_was_not_measured()
    {
        var notMeasured = new OverheadEstimate(4.08, null, null,
            "not measured: no execution ran wholly inside the pilot or the phase (executions longer than the pilot, or the phase was interrupted)");
        var fewExecutions = new OverheadEstimate(2.3, 2.4, 0.96, ObserverEffect.Method) { InstrumentedExecutions = 19, UninstrumentedExecutions = 4, RatioLow = 0.9, RatioHigh = 1.02 };
        var shown = new OverheadEstimate(2.3, 2.4, 0.958, ObserverEffect.Method) { InstrumentedExecutions = 400, UninstrumentedExecutions = 90, RatioLow = 0.93, RatioHigh = 0.99 };
        var outcome = new CaptureOutcome("/b", BundleStatus.Complete, null,
            [Phase("baseline", 1, fewExecutions), Phase("load", 96, notMeasured), Phase("sweep", 2, shown)], "/b/report", [], null);
        var text = new StringWriter();

        CaptureSummary.Print(outcome, text);

        var lines = text.ToString().Split('\n');
        Assert.EndsWith("not measured (why: below)", Assert.Single(lines, l => l.StartsWith("load ", StringComparison.Ordinal)).TrimEnd());
        Assert.EndsWith("not shown (why: below)", Assert.Single(lines, l => l.StartsWith("baseline ", StringComparison.Ordinal)).TrimEnd());
        Assert.EndsWith("0.958 (0.93–0.99)", Assert.Single(lines, l => l.StartsWith("sweep ", StringComparison.Ordinal)).TrimEnd());
        Assert.Contains(lines, l => l.StartsWith("load: observer effect not measured: no execution ran wholly inside the pilot", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("baseline: observer effect not shown: 4 executions before the collectors started and 19 with them", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.StartsWith("sweep: observer effect", StringComparison.Ordinal));
        Assert.DoesNotContain("capture.log says why", text.ToString(), StringComparison.Ordinal);
    }

    private static PhaseSummary Phase(string name, int threads, OverheadEstimate overhead) =>
        new(name, threads, new ExecutionCounts(40, 0, 0, 40, 40_000, 0, 10_000, 10_000, 900, 1000, 1100, 1200) { Timed = 40 }, 10, overhead);
}
