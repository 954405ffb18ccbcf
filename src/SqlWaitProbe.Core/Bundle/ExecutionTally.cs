namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// The one definition of "the executions of a phase" (docs/analysis.md, "Executions in a phase"), used by the
/// capture's summary as it writes <c>executions.csv</c> and by analysis as it reads it, so both print the same numbers.
/// A phase's executions are those that started inside its window (times in ms since the window opened). One that
/// was still running when the window closed is measured up to the window's end: its session time stops there, and it
/// counts as the share of it that ran inside (in-window time ÷ its whole time), so executions per second and time per
/// execution describe the window alone; its latency is whole (the driver timed it to its end). One the capture cancelled
/// because it was still running <c>--finish-within</c> after the window closed counts the same way, with the time it ran
/// until cancelled as its whole time (its real one is longer, so its share is an upper bound), and has no latency.
/// </summary>
public sealed class ExecutionTally
{
    private readonly List<float> _latencies = [];
    private long _errors;
    private long _running;
    private long _cancelled;
    private long _executions;
    private double _counted;
    private double _sessionMs;
    private double _first = double.MaxValue;
    private double _last = double.MinValue;

    /// <summary>A tally for a window of <paramref name="windowMs"/> ms; null for bundles written before windows were recorded (nothing is cut).</summary>
    public ExecutionTally(double? windowMs)
    {
        WindowMs = windowMs is > 0 ? windowMs : null;
    }

    /// <summary>The window's length in ms, or null when not recorded.</summary>
    public double? WindowMs { get; }

    /// <summary>Where an execution ending at <paramref name="endMs"/> stops counting: the window's end at the latest.</summary>
    public double InWindowEnd(double endMs) => WindowMs is { } w ? Math.Min(endMs, w) : endMs;

    /// <summary>
    /// Adds one execution (ms since the window opened; <paramref name="endMs"/> ≥ <paramref name="startMs"/>);
    /// <paramref name="cancelled"/> when the capture cancelled it after the window, <paramref name="endMs"/> then being when.
    /// </summary>
    public void Add(double startMs, double endMs, bool error, bool cancelled = false)
    {
        var whole = endMs - startMs;
        var inside = Math.Max(0, InWindowEnd(endMs) - startMs);
        _executions++;
        if (cancelled)
        {
            _cancelled++;
        }
        else
        {
            _latencies.Add((float)whole);
        }

        _errors += error ? 1 : 0;
        _sessionMs += inside;
        if (inside < whole)
        {
            _running++;
            _counted += whole > 0 ? inside / whole : 0;
        }
        else
        {
            _counted += 1;
        }

        _first = Math.Min(_first, startMs);
        _last = Math.Max(_last, endMs);
    }

    /// <summary>The figures of the executions added so far.</summary>
    public ExecutionCounts Counts()
    {
        _latencies.Sort();
        var n = _executions;
        return new ExecutionCounts(n, _errors, _running, _counted, _sessionMs,
            n == 0 ? 0 : _first, n == 0 ? 0 : _last, WindowMs,
            Percentile(0.50), Percentile(0.95), Percentile(0.99), _latencies.Count == 0 ? 0 : _latencies[^1])
        {
            Cancelled = _cancelled,
            Timed = _latencies.Count,
        };
    }

    // Nearest rank: the smallest value with at least p of the values at or below it.
    private double Percentile(double p) => _latencies.Count == 0 ? 0 : _latencies[Math.Clamp((int)Math.Ceiling(p * _latencies.Count) - 1, 0, _latencies.Count - 1)];
}
