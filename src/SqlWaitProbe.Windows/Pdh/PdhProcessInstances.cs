namespace SqlWaitProbe.Windows.Pdh;

/// <summary>
/// Finds the server's process among the instances of one PDH sample. PDH names processes of one image
/// <c>sqlservr</c>, <c>sqlservr#1</c>, … and renumbers them when one exits, so a name is only good within the sample
/// it came from: the instance is the one whose <c>ID Process</c> is the server's pid, looked up anew in every sample.
/// Portable: the arrays come from <see cref="PdhQuery"/> on Windows and from recorded samples in tests.
/// </summary>
public static class PdhProcessInstances
{
    /// <summary>
    /// The instance of this sample whose <c>ID Process</c> is <paramref name="pid"/>; without a pid, the only instance
    /// when there is exactly one (several same-named processes and no pid: none, rather than another instance's).
    /// </summary>
    public static string? Pick(IReadOnlyList<PdhInstanceValue> idProcess, int? pid)
    {
        ArgumentNullException.ThrowIfNull(idProcess);
        if (pid is { } p)
        {
            return idProcess.FirstOrDefault(i => i.Value is { } v && (long)Math.Round(v) == p)?.Instance;
        }

        return idProcess.Count == 1 ? idProcess[0].Instance : null;
    }

    /// <summary>The server's two CPU values of one sample (total and privileged, 100 per busy core), null where not found.</summary>
    public static (double? Total, double? Privileged) ServerCpu(IReadOnlyList<PdhInstanceValue> idProcess, IReadOnlyList<PdhInstanceValue> processorTime,
        IReadOnlyList<PdhInstanceValue> privilegedTime, int? pid)
    {
        ArgumentNullException.ThrowIfNull(processorTime);
        ArgumentNullException.ThrowIfNull(privilegedTime);
        if (Pick(idProcess, pid) is not { } instance)
        {
            return (null, null);
        }

        return (processorTime.FirstOrDefault(i => i.Instance == instance)?.Value, privilegedTime.FirstOrDefault(i => i.Instance == instance)?.Value);
    }
}
