using System.Reflection;

namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// Enforces the dependency direction: the core, analysis and reporting build and test with no database
/// driver, OS tracing API or console library, and nothing depends on the command-line tool.
/// </summary>
public class DependencyDirectionTests
{
    private static readonly string[] EdgeLibraries =
    [
        "Npgsql", "Microsoft.Data.SqlClient", "Microsoft.Diagnostics.Tracing.TraceEvent", "Microsoft.Diagnostics.FastSerialization",
        "Spectre.Console", "System.CommandLine", "Serilog",
    ];

    public static TheoryData<string, string[]> AllowedProjectReferences()
    {
        var rows = new TheoryData<string, string[]>
        {
            { "SqlWaitProbe.Core", [] },
            { "SqlWaitProbe.Analysis", ["SqlWaitProbe.Core"] },
            { "SqlWaitProbe.Reporting", ["SqlWaitProbe.Analysis", "SqlWaitProbe.Core"] },
            // A collector module holds its writer and its reader into the analysis model, so the projects of collectors
            // may reference the analysis (which holds no driver), never the reports or another platform or engine.
            { "SqlWaitProbe.Linux", ["SqlWaitProbe.Core", "SqlWaitProbe.Analysis"] },
            { "SqlWaitProbe.Windows", ["SqlWaitProbe.Core", "SqlWaitProbe.Analysis", "SqlWaitProbe.Etl"] },

            // The .etl reader is managed code only, so it reads traces on every OS: no TraceEvent, no Windows API.
            { "SqlWaitProbe.Etl", ["SqlWaitProbe.Core"] },

            // The one list of registered modules: it names every engine and platform, and nothing names it but the CLI.
            { "SqlWaitProbe.Modules", ["SqlWaitProbe.Core", "SqlWaitProbe.Analysis", "SqlWaitProbe.Linux", "SqlWaitProbe.Windows", .. RegisteredEngineAssemblies.Names] },
            { "SqlWaitProbe.Phases", ["SqlWaitProbe.Core"] },
            { "SqlWaitProbe.Packing", ["SqlWaitProbe.Core"] },

            // Experiments run without a server or a driver: engines bring their settings through the engine contract.
            { "SqlWaitProbe.Experiments", ["SqlWaitProbe.Core"] },

            // The capture session is engine- and OS-neutral and ends with the bundle: engines and OS collectors come in as
            // modules, and the command line analyses the bundle afterwards.
            { "SqlWaitProbe.Capture", ["SqlWaitProbe.Core", "SqlWaitProbe.Phases"] },
        };

        // Every registered engine, a new one included: the contracts and the analysis model, no other engine or platform.
        foreach (var engine in RegisteredEngineAssemblies.Names)
        {
            rows.Add(engine, ["SqlWaitProbe.Core", "SqlWaitProbe.Analysis"]);
        }

        return rows;
    }

    [Theory]
    [MemberData(nameof(AllowedProjectReferences))]
    public void Project_references_only_inner_layers(string assemblyName, string[] allowed)
    {
        var references = ReferencedProbeAssemblies(assemblyName);
        var forbidden = references.Except(allowed).ToArray();
        Assert.True(forbidden.Length == 0, $"{assemblyName} must not reference {string.Join(", ", forbidden)}");
    }

    [Theory]
    [InlineData("SqlWaitProbe.Core")]
    [InlineData("SqlWaitProbe.Analysis")]
    [InlineData("SqlWaitProbe.Reporting")]
    [InlineData("SqlWaitProbe.Etl")]
    [InlineData("SqlWaitProbe.Packing")]
    public void Inner_layers_use_no_driver_tracing_or_console_library(string assemblyName)
    {
        var references = Load(assemblyName).GetReferencedAssemblies().Select(a => a.Name!).ToArray();
        var forbidden = references.Where(r => EdgeLibraries.Any(e => r.StartsWith(e, StringComparison.Ordinal))).ToArray();
        Assert.True(forbidden.Length == 0, $"{assemblyName} must not reference {string.Join(", ", forbidden)}");
    }

    [Theory]
    [InlineData("Npgsql")]
    [InlineData("Microsoft.Data.SqlClient")]
    [InlineData("System.Data.SqlClient")]
    public void Command_line_tool_holds_no_database_driver_code(string driver)
    {
        // Connection strings, redaction, server checks and option validation live with their engine; the CLI
        // parses, builds a request, and renders.
        var references = Load("probe").GetReferencedAssemblies().Select(a => a.Name!).ToArray();
        Assert.DoesNotContain(driver, references);
        Assert.DoesNotContain(driver, Load("SqlWaitProbe.Capture").GetReferencedAssemblies().Select(a => a.Name!));
    }

    [Fact]
    public void Command_line_tool_is_the_composition_root()
    {
        string[] probeAssemblies =
        [
            "SqlWaitProbe.Core", "SqlWaitProbe.Analysis", "SqlWaitProbe.Reporting", "SqlWaitProbe.Linux", "SqlWaitProbe.Windows",
            "SqlWaitProbe.Phases", "SqlWaitProbe.Capture", "SqlWaitProbe.Etl", "SqlWaitProbe.Packing", "SqlWaitProbe.Experiments", "SqlWaitProbe.Modules",
            .. RegisteredEngineAssemblies.Names,
        ];
        foreach (var name in probeAssemblies)
        {
            Assert.DoesNotContain("probe", Load(name).GetReferencedAssemblies().Select(a => a.Name));
        }

        var cli = Load("probe").GetReferencedAssemblies().Select(a => a.Name!).ToHashSet();
        Assert.Contains("SqlWaitProbe.Postgres", cli);
        Assert.Contains("SqlWaitProbe.Reporting", cli);
    }

    private static string[] ReferencedProbeAssemblies(string assemblyName) =>
        Load(assemblyName).GetReferencedAssemblies()
            .Select(a => a.Name!)
            .Where(n => n.StartsWith("SqlWaitProbe.", StringComparison.Ordinal) || n == "probe")
            .ToArray();

    private static Assembly Load(string name) => Assembly.Load(new AssemblyName(name));
}
