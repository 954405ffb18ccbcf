using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Experiments;
using SqlWaitProbe.Experiments.Files;
using SqlWaitProbe.Cli.Composition;

namespace SqlWaitProbe.Cli.Experiments;

/// <summary>
/// An experiment file read and checked as far as it can be without a server: the file, every setting against its
/// engine's catalog, every script's syntax (T-SQL), each variant's capture as <c>probe capture</c> would take it, and
/// the output folder. Everything here is bad input (exit 2) and happens before anything is made or sent.
/// </summary>
internal sealed class ExperimentPlan
{
    private ExperimentPlan(ExperimentDefinition definition, IExperimentEngine engine, ISettingCatalog catalog, IReadOnlyDictionary<string, SettingDefinition> settings, string folder, ExperimentCaptures captures, string? workloadFile)
    {
        Definition = definition;
        Engine = engine;
        Catalog = catalog;
        Settings = settings;
        Folder = folder;
        Captures = captures;
        WorkloadFile = workloadFile;
    }

    /// <summary>The experiment as read.</summary>
    public ExperimentDefinition Definition { get; }

    /// <summary>Its engine's part in experiments.</summary>
    public IExperimentEngine Engine { get; }

    /// <summary>Its engine's settings catalog.</summary>
    public ISettingCatalog Catalog { get; }

    /// <summary>Each setting name as written, resolved.</summary>
    public IReadOnlyDictionary<string, SettingDefinition> Settings { get; }

    /// <summary>The output folder, full path.</summary>
    public string Folder { get; }

    /// <summary>How each variant is captured.</summary>
    public ExperimentCaptures Captures { get; }

    /// <summary>Where an inline workload query is written for the captures (in the output folder); null for a file or a built-in workload.</summary>
    public string? WorkloadFile { get; }

    /// <summary>Reads and checks <paramref name="path"/>; throws <see cref="BadInputException"/>.</summary>
    public static ExperimentPlan Read(string path, string folder, bool dryRun, IProbeConsole console, bool verbose)
    {
        var definition = ExperimentFileReader.Read(path, EngineCatalog.Experiments);
        var engine = EngineCatalog.Experiments[definition.Engine];
        var catalog = engine.Catalog;
        var settings = ExperimentChecks.Check(definition, catalog);
        var full = Path.GetFullPath(folder);
        if (!dryRun)
        {
            OutputPath.CheckFolder(folder, "an experiment", [path], null);
            if (Directory.Exists(full) && Directory.EnumerateFileSystemEntries(full).Any())
            {
                throw new BadInputException("-o already holds files; an experiment writes a new folder (one bundle per variant and the comparison): choose another -o", folder);
            }
        }

        var inline = definition.Workload.Sql is { } sql && sql.File == definition.File;
        var workloadFile = inline ? Path.Combine(full, "workload.sql") : null;
        var captures = new ExperimentCaptures(definition, engine, workloadFile, console, verbose);

        // The captures are checked with the inline query in a file of its own, as they will run it; the file goes again.
        var checkFile = inline ? Path.Combine(Path.GetTempPath(), $"probe-experiment-{Guid.NewGuid():N}.sql") : null;
        try
        {
            if (checkFile is not null)
            {
                AtomicFile.WriteAllText(checkFile, definition.Workload.Sql!.Text);
            }

            new ExperimentCaptures(definition, engine, checkFile, console, verbose).Check(full);
        }
        finally
        {
            if (checkFile is not null)
            {
                File.Delete(checkFile);
            }
        }

        return new ExperimentPlan(definition, engine, catalog, settings, full, captures, workloadFile);
    }
}
