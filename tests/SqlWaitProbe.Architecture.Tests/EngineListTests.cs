using System.Reflection;

namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// Outside the engine projects, only the one list of registered engines (<c>SqlWaitProbe.Modules</c>) names them, so a
/// new engine is its project plus one line there. Two commands are an engine's own by what they do and are the
/// exceptions: <c>probe demo</c> starts PostgreSQL, and <c>probe xe</c> reads SQL Server's <c>.xel</c> files.
/// </summary>
public class EngineListTests
{
    private static readonly string[] EngineAssemblies = ["SqlWaitProbe.Postgres", "SqlWaitProbe.SqlServer"];

    [Theory]
    [InlineData("SqlWaitProbe.Core")]
    [InlineData("SqlWaitProbe.Analysis")]
    [InlineData("SqlWaitProbe.Reporting")]
    [InlineData("SqlWaitProbe.Packing")]
    [InlineData("SqlWaitProbe.Phases")]
    [InlineData("SqlWaitProbe.Capture")]
    [InlineData("SqlWaitProbe.Linux")]
    [InlineData("SqlWaitProbe.Windows")]
    public void Only_the_registered_list_references_an_engine(string assemblyName)
    {
        var references = Assembly.Load(new AssemblyName(assemblyName)).GetReferencedAssemblies().Select(a => a.Name!);
        Assert.Empty(references.Intersect(EngineAssemblies));
    }

    [Fact]
    public void The_command_line_names_an_engine_only_in_its_engine_specific_commands()
    {
        // A type of an engine project can only be reached through its namespace, in a using or written out.
        string[] allowed = ["DemoCommand.cs", "XeCommand.cs"];
        var cli = Path.Combine(RepositoryRoot(), "src", "SqlWaitProbe.Cli");
        var offenders = Directory.EnumerateFiles(cli, "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Where(f => !allowed.Contains(Path.GetFileName(f)))
            .Where(f => File.ReadLines(f).Any(l => l.Contains("SqlWaitProbe.Postgres", StringComparison.Ordinal) || l.Contains("SqlWaitProbe.SqlServer", StringComparison.Ordinal)))
            .Select(f => Path.GetRelativePath(cli, f))
            .ToArray();
        Assert.True(offenders.Length == 0, "name an engine outside the registered list: " + string.Join(", ", offenders));
    }

    [Fact]
    public void Server_process_names_are_given_by_their_engine_modules_only()
    {
        // A default of "sqlservr" or "postgres" outside the engines would follow a capture of the other engine
        // (perf following postgres on a SQL Server capture). The engine names, where a command is an engine's own
        // (demo) or picks among engines by name (an experiment file), are not process names.
        string[] allowed = ["DemoCommand.cs", "ExperimentFileReader.cs"];
        var src = Path.Combine(RepositoryRoot(), "src");
        var offenders = Directory.EnumerateDirectories(src)
            .Where(d => !Path.GetFileName(d).StartsWith("SqlWaitProbe.SqlServer", StringComparison.Ordinal) && !Path.GetFileName(d).StartsWith("SqlWaitProbe.Postgres", StringComparison.Ordinal))
            .SelectMany(d => Directory.EnumerateFiles(d, "*.cs", SearchOption.AllDirectories))
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Where(f => !allowed.Contains(Path.GetFileName(f)))
            .Where(f => File.ReadLines(f).Where(l => !l.TrimStart().StartsWith("//", StringComparison.Ordinal))
                .Any(l => l.Contains("\"sqlservr\"", StringComparison.OrdinalIgnoreCase) || l.Contains("\"postgres\"", StringComparison.OrdinalIgnoreCase)))
            .Select(f => Path.GetRelativePath(src, f))
            .ToArray();
        Assert.True(offenders.Length == 0, "spell a server process name outside its engine module (take it from EngineProcess): " + string.Join(", ", offenders));
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
