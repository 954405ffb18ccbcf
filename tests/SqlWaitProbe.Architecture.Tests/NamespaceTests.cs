using System.Reflection;

namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// A namespace inside a project never repeats the name of another project (<c>SqlWaitProbe.Cli.Capture</c> next to
/// <c>SqlWaitProbe.Capture</c>): inside it, <c>Capture.X</c> would silently mean the nearer one, and code would come to
/// lean on partial names such as <c>Core.Bundle.BundleWriter</c>.
/// </summary>
public class NamespaceTests
{
    private static readonly string[] Assemblies =
    [
        "SqlWaitProbe.Core", "SqlWaitProbe.Analysis", "SqlWaitProbe.Reporting", "SqlWaitProbe.Linux", "SqlWaitProbe.Windows",
        "SqlWaitProbe.SqlServer", "SqlWaitProbe.Postgres", "SqlWaitProbe.Phases", "SqlWaitProbe.Capture", "SqlWaitProbe.Packing", "SqlWaitProbe.Etl", "SqlWaitProbe.Modules", "probe",
    ];

    [Fact]
    public void No_namespace_is_named_like_a_project()
    {
        var namespaces = Assemblies
            .SelectMany(a => Assembly.Load(new AssemblyName(a)).GetTypes())
            .Select(t => t.Namespace)
            .OfType<string>()
            .Where(n => n.StartsWith("SqlWaitProbe.", StringComparison.Ordinal))
            .Distinct(StringComparer.Ordinal)
            .ToArray();
        var projects = namespaces.Select(n => n.Split('.')[1]).ToHashSet(StringComparer.Ordinal);
        var shadowing = namespaces
            .Where(n => n.Split('.').Skip(2).Any(projects.Contains))
            .Order(StringComparer.Ordinal)
            .ToArray();
        Assert.True(shadowing.Length == 0, "namespaces that repeat a project's name: " + string.Join(", ", shadowing));
    }
}
