namespace SqlWaitProbe.TestSupport;

/// <summary>Locates the repository's test data (tests/data, copied from public sources; see tests/data/SOURCES.md).</summary>
public static class TestData
{
    /// <summary>The repository root (the folder holding SqlWaitProbe.sln).</summary>
    public static string RepoRoot { get; } = FindRoot();

    /// <summary>Absolute path of a file under tests/data.</summary>
    public static string Path(string relative) => System.IO.Path.Combine(RepoRoot, "tests", "data", relative);

    /// <summary>A fresh empty temporary folder, deleted by the caller (or left in /tmp).</summary>
    public static string TempFolder(string prefix = "probe-test")
    {
        var folder = System.IO.Path.Combine(System.IO.Path.GetTempPath(), prefix + "-" + Guid.NewGuid().ToString("N")[..10]);
        Directory.CreateDirectory(folder);
        return folder;
    }

    /// <summary>
    /// A PostgreSQL workload file (<c>--sql</c>) whose executions sleep 20 ms on the server: a capture that connects,
    /// runs phases and writes a whole bundle with next to no CPU, for tests about anything but the workload's numbers
    /// (connection forms, secrets, limits, output folders), so the suite's CPU goes to the tests that measure.
    /// </summary>
    public static string IdleWorkload()
    {
        var path = System.IO.Path.Combine(TempFolder("probe-idle"), "idle.sql");
        File.WriteAllText(path, "SELECT pg_sleep(0.02)");
        return path;
    }

    private static string FindRoot()
    {
        var dir = new DirectoryInfo(AppContext.BaseDirectory);
        while (dir is not null && !File.Exists(System.IO.Path.Combine(dir.FullName, "SqlWaitProbe.sln")))
        {
            dir = dir.Parent;
        }

        return dir?.FullName ?? throw new InvalidOperationException("SqlWaitProbe.sln not found above the test binaries");
    }
}
