using System.Text.RegularExpressions;

namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// Commands write to the console they are given (<c>IProbeConsole</c>), never to the process-wide
/// <see cref="Console"/>, so in-process runs stay apart; only <c>SystemConsole</c> touches the real one.
/// </summary>
public partial class ConsoleSeamTests
{
    [Fact]
    public void Only_the_system_console_uses_System_Console()
    {
        var root = RepositoryRoot();
        var offenders = new[] { "src/SqlWaitProbe.Cli", "src/SqlWaitProbe.Capture" }
            .SelectMany(folder => Directory.EnumerateFiles(Path.Combine(root, folder), "*.cs", SearchOption.AllDirectories))
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Where(f => Path.GetFileName(f) != "SystemConsole.cs")
            .SelectMany(f => File.ReadLines(f).Select((line, i) => (File: Path.GetRelativePath(root, f), Line: i + 1, Text: line)))
            .Where(l => DirectConsole().IsMatch(l.Text) && !l.Text.TrimStart().StartsWith("//", StringComparison.Ordinal))
            .Select(l => $"{l.File}:{l.Line}: {l.Text.Trim()}")
            .ToArray();
        Assert.True(offenders.Length == 0, "use the IProbeConsole passed in:\n" + string.Join('\n', offenders));
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

    [GeneratedRegex(@"(?<![\w.])Console\.(Out|Error|In|Write|WriteLine|Read|ReadLine|ReadKey|OpenStandard\w+|Is\w+Redirected|Set\w+)\b")]
    private static partial Regex DirectConsole();
}
