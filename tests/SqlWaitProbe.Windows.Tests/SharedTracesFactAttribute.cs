namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// A test that needs Windows (TraceEvent's TraceLog reads an .etl only through Windows' OpenTrace) and the two real
/// PerfView traces in ../shared/data/etl (the Windows CI job downloads them from microsoft/perfview); skipped otherwise.
/// </summary>
public sealed class SharedTracesFactAttribute : FactAttribute
{
    /// <summary>Skips the test off Windows or without the traces.</summary>
    public SharedTracesFactAttribute()
    {
        if (!OperatingSystem.IsWindows())
        {
            Skip = "needs Windows";
        }
        else if (!File.Exists(Path.Combine(Folder, "perfview__net.4.5.2.x64.etl.zip")))
        {
            Skip = "needs ../shared/data/etl (the PerfView traces)";
        }
    }

    /// <summary>Where the traces are.</summary>
    public static string Folder => Path.GetFullPath(Path.Combine(TestSupport.TestData.RepoRoot, "..", "shared", "data", "etl"));
}
