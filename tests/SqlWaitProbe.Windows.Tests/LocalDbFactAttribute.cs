namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// A test that needs SQL Server Express LocalDB on Windows; runs only when <c>PROBE_LOCALDB</c> names the instance
/// (the Windows CI job sets it after <c>sqllocaldb info</c> found one).
/// </summary>
public sealed class LocalDbFactAttribute : FactAttribute
{
    /// <summary>The variable naming the LocalDB instance, e.g. <c>MSSQLLocalDB</c>.</summary>
    public const string Variable = "PROBE_LOCALDB";

    /// <summary>Skips the test without Windows or without the variable.</summary>
    public LocalDbFactAttribute()
    {
        if (!OperatingSystem.IsWindows())
        {
            Skip = "needs Windows";
        }
        else if (string.IsNullOrWhiteSpace(Environment.GetEnvironmentVariable(Variable)))
        {
            Skip = $"needs SQL Server LocalDB ({Variable} not set)";
        }
    }
}
