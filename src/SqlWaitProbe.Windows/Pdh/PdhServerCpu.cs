namespace SqlWaitProbe.Windows.Pdh;

/// <summary>PDH's own formula for <paramref name="counter"/> (0: <c>% Processor Time</c>, 1: <c>% Privileged Time</c>) from two raw values of one process.</summary>
/// <returns>The rate, or null when PDH finds no valid value (a restarted process's time went down).</returns>
public delegate double? PdhRateCalculator(int counter, PdhRawValue current, PdhRawValue previous);

/// <summary>
/// The server process's CPU, sample by sample. A rate needs the same process's raw value of the previous sample, and
/// PDH, asked for formatted values of a wildcard counter, pairs each instance with the one of the same name before,
/// which after a renumbering is another process (one sample of nonsense, or none). Here the pair is the server's own:
/// its instance is found by <c>ID Process</c> in each sample and its raw values are kept from one sample to the next.
/// </summary>
/// <param name="pid">The server's pid, or null for the only process of its name.</param>
/// <param name="calculate">Turns two raw values into the percentage (PDH's calculation on Windows).</param>
public sealed class PdhServerCpu(int? pid, PdhRateCalculator calculate)
{
    private (long Pid, PdhRawValue? Total, PdhRawValue? Privileged)? _last;

    /// <summary>
    /// The server's two CPU values of this sample (total and privileged, 100 per busy core), from the raw arrays of
    /// <c>ID Process</c>, <c>% Processor Time</c> and <c>% Privileged Time</c>; null where it has no previous sample of
    /// its own (its first, or the process was not there) or no valid value.
    /// </summary>
    public (double? Total, double? Privileged) Next(IReadOnlyList<PdhRawValue> idProcess, IReadOnlyList<PdhRawValue> processorTime, IReadOnlyList<PdhRawValue> privilegedTime)
    {
        ArgumentNullException.ThrowIfNull(processorTime);
        ArgumentNullException.ThrowIfNull(privilegedTime);
        if (PdhProcessInstances.Pick(idProcess, pid) is not { } server)
        {
            _last = null;
            return (null, null);
        }

        var total = processorTime.FirstOrDefault(i => i.Instance == server.Instance && i.IsValid);
        var privileged = privilegedTime.FirstOrDefault(i => i.Instance == server.Instance && i.IsValid);
        var last = _last is { } l && l.Pid == server.First ? l : ((long Pid, PdhRawValue? Total, PdhRawValue? Privileged)?)null;
        _last = (server.First, total, privileged);
        return (Rate(0, total, last?.Total), Rate(1, privileged, last?.Privileged));
    }

    private double? Rate(int counter, PdhRawValue? current, PdhRawValue? previous) =>
        current is not null && previous is not null ? calculate(counter, current, previous) : null;
}
