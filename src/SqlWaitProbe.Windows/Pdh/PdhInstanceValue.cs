namespace SqlWaitProbe.Windows.Pdh;

/// <summary>One instance's value of a wildcard counter in one sample, e.g. <c>sqlservr#1</c> = 4242 for <c>ID Process</c>.</summary>
/// <param name="Instance">The instance name PDH gave in that sample.</param>
/// <param name="Value">Its value; null when PDH had no valid value for it.</param>
public sealed record PdhInstanceValue(string Instance, double? Value);
