namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// Every periodic collector polls on the one <c>PollingLoop</c>: its timing, its lost-poll rule and its stop are then
/// the same everywhere, and a new collector cannot grow a loop of its own with different ones.
/// </summary>
public class PollingLoopTests
{
    [Fact]
    public void Only_the_polling_loop_makes_a_periodic_timer()
    {
        var root = RepositoryRoot();
        var offenders = Directory.EnumerateFiles(Path.Combine(root, "src"), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Where(f => Path.GetFileName(f) != "PollingLoop.cs")
            .Where(f => File.ReadLines(f).Any(l => l.Contains("new PeriodicTimer(", StringComparison.Ordinal)))
            .Select(f => Path.GetRelativePath(root, f))
            .ToArray();
        Assert.True(offenders.Length == 0, "poll on Core/Collectors/PollingLoop instead: " + string.Join(", ", offenders));
    }

    private static string RepositoryRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "SqlWaitProbe.sln")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("the repository root (SqlWaitProbe.sln) is not above " + AppContext.BaseDirectory);
    }
}
