using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Experiments;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Reporting;
using SqlWaitProbe.Reporting.Comparison;

namespace SqlWaitProbe.Cli.Experiments;

/// <summary>
/// One run of a checked experiment: its server opened (the embedded PostgreSQL started), the variants run and every
/// setting restored by <see cref="ExperimentRunner"/>, the server closed, then the variants' bundles compared with
/// <c>probe compare</c>'s model into <c>DIR/comparison</c>.
/// </summary>
internal static class ExperimentSession
{
    /// <summary>The folder of the comparison inside the experiment's folder.</summary>
    public const string ComparisonFolder = "comparison";

    /// <summary>Runs <paramref name="plan"/>; bad input found on the server is thrown before any variant runs.</summary>
    public static async Task<ExperimentResult> RunAsync(ExperimentPlan plan, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var experiment = plan.Definition;
        if (plan.WorkloadFile is { } workload)
        {
            AtomicFile.WriteAllText(workload, experiment.Workload.Sql!.Text + "\n");
        }

        var split = plan.Captures.IterationSplit();
        foreach (var line in split ?? [])
        {
            progress.Report("executions of phase " + line);
        }

        var runId = Guid.NewGuid().ToString("N")[..10];
        ExperimentOutcome outcome;
        await using (var server = await OpenAsync(plan, runId, progress, cancellationToken))
        {
            var runner = new ExperimentRunner(experiment, plan.Catalog, plan.Settings, plan.Folder) { Target = Target(plan) };
            outcome = await runner.RunAsync(server, plan.Captures, runId, progress, cancellationToken);
        }

        var bundles = outcome.Variants.Where(v => v.Bundle is not null && Directory.Exists(v.Bundle)).ToList();
        if (bundles.Count < 2 || outcome.Status != BundleStatus.Complete)
        {
            return new ExperimentResult(plan.Definition.File, plan.Folder, outcome, null, [], []) { Split = split };
        }

        var folder = Path.Combine(plan.Folder, ComparisonFolder);
        var (comparison, files, failures) = await CompareBuilder.BuildAsync(
            bundles.Select(b => b.Bundle!).ToArray(), bundles.Select(b => b.Name).ToArray(), null, folder,
            new ReportOptions { Modules = Registered.Analysis }, progress, cancellationToken);
        return new ExperimentResult(plan.Definition.File, plan.Folder, outcome, comparison, files, failures) { Split = split };
    }

    private static ExperimentTarget Target(ExperimentPlan plan) =>
        new(plan.Definition.File, plan.Definition.Server, plan.Definition.Database, plan.Definition.User, plan.Definition.PasswordEnv)
        {
            Encrypt = plan.Definition.Encrypt, TrustServerCertificate = plan.Definition.TrustServerCertificate,
        };

    private static async Task<ISettingServer> OpenAsync(ExperimentPlan plan, string runId, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var experiment = plan.Definition;
        var sessions = experiment.Threads.Max() + experiment.Variants.Max(v => v.Background?.Sessions ?? 0) + 4;
        progress.Report(experiment.Server is null ? "starting the embedded server" : "connecting");
        return await plan.Engine.OpenAsync(
            Target(plan),
            new RunScope("experiment", runId), sessions, progress, cancellationToken);
    }
}
