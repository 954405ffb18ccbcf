namespace SqlWaitProbe.Linux.Perf;

/// <summary>What one unit of a perf sample's weight (its period) is, in speedscope's unit names.</summary>
public static class PerfWeightUnit
{
    /// <summary>Weights in nanoseconds: the period of <c>cpu-clock</c> and <c>task-clock</c> samples.</summary>
    public const string Nanoseconds = "nanoseconds";

    /// <summary>Weights that are counts (samples, or cycles and other hardware events).</summary>
    public const string Counts = "none";

    /// <summary>The unit of the weights of samples of <paramref name="eventName"/> (perf script's event field, modifiers allowed).</summary>
    public static string Of(string? eventName)
    {
        var name = eventName?.Split(':')[0];
        return name is "cpu-clock" or "task-clock" ? Nanoseconds : Counts;
    }
}
