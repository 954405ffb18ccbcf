namespace SqlWaitProbe.Phases;

/// <summary>
/// Where a running phase stands, once a second: what a terminal progress bar draws. <see cref="Text"/> is the same
/// state as the one plain line printed where there is no terminal (CI, pipes, <c>--format json</c>).
/// </summary>
/// <param name="Phase">The phase name.</param>
/// <param name="Sessions">Concurrent sessions of the phase.</param>
/// <param name="Executions">Executions of the phase finished so far (the pilot before it is not counted).</param>
/// <param name="Running">Executions still running after the phase ended, which it measures up to its end; null while it runs.</param>
/// <param name="ElapsedSeconds">Seconds since the sessions were released.</param>
/// <param name="DurationSeconds">The phase's duration in seconds; null when it runs a number of iterations.</param>
/// <param name="Iterations">Iterations per session when the phase has no duration.</param>
/// <param name="State">What the phase is doing (pilot, collecting, waiting for the running executions, done).</param>
/// <param name="Done">True on the last report, whose <see cref="Executions"/> is the summary's figure.</param>
/// <param name="Text">The plain progress line for this state.</param>
public sealed record PhaseProgress(
    string Phase,
    int Sessions,
    long Executions,
    long? Running,
    double ElapsedSeconds,
    double? DurationSeconds,
    long? Iterations,
    string State,
    bool Done,
    string Text)
{
    /// <summary>Executions of the phase as a whole when its iterations are a total split over its sessions; null otherwise.</summary>
    public long? IterationsTotal { get; init; }

    /// <summary>
    /// Reports <paramref name="state"/> to <paramref name="progress"/>: as a <see cref="PhaseProgress"/> when it can
    /// draw one (a progress bar), otherwise as its plain line.
    /// </summary>
    public static void Report(IProgress<string> progress, PhaseProgress state)
    {
        if (progress is IProgress<PhaseProgress> phases)
        {
            phases.Report(state);
            return;
        }

        progress.Report(state.Text);
    }
}
