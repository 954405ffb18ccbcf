namespace SqlWaitProbe.Windows.Pdh;

/// <summary>
/// Finds the server's process among the instances of one PDH sample. PDH names processes of one image
/// <c>sqlservr</c>, <c>sqlservr#1</c>, … and renumbers them when one exits, so a name is only good within the sample
/// it came from: the instance is the one whose <c>ID Process</c> is the server's pid, looked up anew in every sample.
/// Portable: the arrays come from <see cref="PdhQuery"/> on Windows and from recorded-shaped samples in tests.
/// </summary>
public static class PdhProcessInstances
{
    /// <summary>
    /// The instance of this sample whose <c>ID Process</c> is <paramref name="pid"/>; without a pid, the only instance
    /// when there is exactly one (several same-named processes and no pid: none, rather than another instance's).
    /// </summary>
    public static PdhRawValue? Pick(IReadOnlyList<PdhRawValue> idProcess, int? pid)
    {
        ArgumentNullException.ThrowIfNull(idProcess);
        var valid = idProcess.Where(i => i.IsValid).ToList();
        if (pid is { } p)
        {
            return valid.FirstOrDefault(i => i.First == p);
        }

        return valid.Count == 1 ? valid[0] : null;
    }
}
