using System.Reflection;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// Outside the engine projects, only the one list of registered engines (<c>SqlWaitProbe.Modules</c>) names them, so a
/// new engine is its project plus one line there. Two commands are an engine's own by what they do and are the
/// exceptions: <c>probe demo</c> starts PostgreSQL, and <c>probe xe</c> reads SQL Server's <c>.xel</c> files.
/// </summary>
public class EngineListTests
{
    private static readonly string[] EngineAssemblies = RegisteredEngineAssemblies.Names;

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
            .Where(f => File.ReadLines(f).Any(l => EngineAssemblies.Any(e => l.Contains(e, StringComparison.Ordinal))))
            .Select(f => Path.GetRelativePath(cli, f))
            .ToArray();
        Assert.True(offenders.Length == 0, "name an engine outside the registered list: " + string.Join(", ", offenders));
    }

    [Fact]
    public void Engine_and_server_process_names_are_spelled_by_their_engine_modules_only()
    {
        // A default of "sqlservr" or "postgres" outside the engines would follow a capture of the other engine
        // (perf following postgres on a SQL Server capture), and a test of an engine's name (== "sqlserver") gives a
        // third engine the other's behaviour. probe demo is PostgreSQL's own command; everything else asks the module.
        string[] allowed = ["DemoCommand.cs"];
        var literals = Registered.Engines.SelectMany(e => new[] { e.Name, e.Process.Name }).Where(n => n.Length > 0).Distinct().Select(n => $"\"{n}\"").ToArray();
        var src = Path.Combine(RepositoryRoot(), "src");
        var offenders = Directory.EnumerateDirectories(src)
            .Where(d => !EngineAssemblies.Any(e => Path.GetFileName(d).StartsWith(e, StringComparison.Ordinal)))
            .SelectMany(d => Directory.EnumerateFiles(d, "*.cs", SearchOption.AllDirectories))
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Where(f => !allowed.Contains(Path.GetFileName(f)))
            .Where(f => File.ReadLines(f).Where(l => !l.TrimStart().StartsWith("//", StringComparison.Ordinal))
                .Any(l => literals.Any(n => l.Contains(n, StringComparison.OrdinalIgnoreCase))))
            .Select(f => Path.GetRelativePath(src, f))
            .ToArray();
        Assert.True(offenders.Length == 0, "spell an engine or server process name outside its engine module (ask the registered module): " + string.Join(", ", offenders));
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
