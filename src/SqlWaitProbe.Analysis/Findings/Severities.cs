namespace SqlWaitProbe.Analysis.Findings;

/// <summary>Values of <see cref="Finding.Severity"/>.</summary>
public static class Severities
{
    /// <summary>Explains most of the lost time.</summary>
    public const string Critical = "critical";
    /// <summary>Worth acting on.</summary>
    public const string Warning = "warning";
    /// <summary>Context.</summary>
    public const string Info = "info";
}
