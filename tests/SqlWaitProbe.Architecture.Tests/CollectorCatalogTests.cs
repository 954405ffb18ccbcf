using System.Reflection;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Linux;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Windows;

namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// A collector exists for the probe only through its catalog: a module written but not registered, or two modules under
/// one name (the manifest and the analysis find a collector by its name), fail here instead of being passed over.
/// </summary>
public class CollectorCatalogTests
{
    private static readonly string[] ModuleAssemblies = ["SqlWaitProbe.Linux", "SqlWaitProbe.Windows", .. RegisteredEngineAssemblies.Names];

    private static ICollectorModule[] AllRegistered() =>
        [.. LinuxCollectors.All, .. WindowsCollectors.All, .. Registered.Engines.SelectMany(e => e.Collectors)];

    [Fact]
    public void Every_collector_module_of_the_platform_and_engine_projects_is_in_a_catalog()
    {
        var registered = AllRegistered().Select(m => m.GetType()).ToHashSet();
        var modules = ModuleAssemblies
            .SelectMany(a => Assembly.Load(new AssemblyName(a)).GetTypes())
            .Where(t => t is { IsClass: true, IsAbstract: false } && typeof(ICollectorModule).IsAssignableFrom(t))
            .ToArray();

        Assert.NotEmpty(modules);
        Assert.Empty(modules.Where(t => !registered.Contains(t)).Select(t => t.FullName));
    }

    [Fact]
    public void Every_registered_collector_has_a_name_of_its_own()
    {
        var duplicates = AllRegistered().GroupBy(m => m.Name, StringComparer.Ordinal).Where(g => g.Count() > 1).Select(g => g.Key);
        Assert.Empty(duplicates);
    }
}
