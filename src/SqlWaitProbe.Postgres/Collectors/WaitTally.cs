namespace SqlWaitProbe.Postgres.Collectors;

/// <summary>Wait milliseconds per <c>Class:Event</c>, in total and per UTC second.</summary>
internal sealed class WaitTally
{
    /// <summary>Total estimated wait ms per wait type.</summary>
    public Dictionary<string, double> TotalMs { get; } = new(StringComparer.Ordinal);

    /// <summary>Samples per wait type (the waiting_tasks column stays empty: samples are not tasks).</summary>
    public Dictionary<string, long> Samples { get; } = new(StringComparer.Ordinal);

    /// <summary>Estimated wait ms per second and wait type.</summary>
    public SortedDictionary<DateTime, Dictionary<string, double>> PerSecond { get; } = new();

    /// <summary>Adds <paramref name="ms"/> of <paramref name="waitType"/> observed at <paramref name="utc"/>.</summary>
    public void Add(DateTime utc, string waitType, long samples, double ms)
    {
        TotalMs[waitType] = TotalMs.GetValueOrDefault(waitType) + ms;
        Samples[waitType] = Samples.GetValueOrDefault(waitType) + samples;
        var second = new DateTime(utc.Ticks - (utc.Ticks % TimeSpan.TicksPerSecond), DateTimeKind.Utc);
        if (!PerSecond.TryGetValue(second, out var map))
        {
            PerSecond[second] = map = new Dictionary<string, double>(StringComparer.Ordinal);
        }

        map[waitType] = map.GetValueOrDefault(waitType) + ms;
    }
}
