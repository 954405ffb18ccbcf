namespace SqlWaitProbe.Windows.Pdh;

/// <summary>
/// One instance's raw value of a wildcard counter in one sample, as PDH collected it (<c>PDH_RAW_COUNTER</c>), e.g.
/// <c>sqlservr#1</c> with <c>ID Process</c> 4242 in <see cref="First"/>. A rate is computed from two of them of the same
/// process: this sample's and the previous one's.
/// </summary>
/// <param name="Instance">The instance name PDH gave in that sample.</param>
/// <param name="Status">PDH's status of the value (<c>CStatus</c>): 0 or 1 is valid.</param>
/// <param name="TimeStamp">When it was collected (<c>FILETIME</c>, 100 ns).</param>
/// <param name="First">The counter's value (a pid, or 100 ns of CPU time).</param>
/// <param name="Second">The second value a rate needs (the 100 ns time base of a timer).</param>
/// <param name="MultiCount">The count of a multi-counter type.</param>
public sealed record PdhRawValue(string Instance, uint Status, long TimeStamp, long First, long Second, uint MultiCount)
{
    /// <summary>True when PDH marked the value valid (<c>PDH_CSTATUS_VALID_DATA</c> or <c>PDH_CSTATUS_NEW_DATA</c>).</summary>
    public bool IsValid => Status is 0 or 1;
}
