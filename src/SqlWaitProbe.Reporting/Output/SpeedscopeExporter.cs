using SqlWaitProbe.Analysis;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes each phase's stacks, every process, as <c>PHASE.speedscope.json</c> for speedscope.app and any tool that reads its format.</summary>
public sealed class SpeedscopeExporter : IReportExporter<AnalysisResult>
{
    /// <inheritdoc/>
    public string Name => "speedscope profiles";

    /// <inheritdoc/>
    public void Export(AnalysisResult report, ReportFolder folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(report);
        foreach (var phase in report.Phases.Where(p => p.Stacks is not null))
        {
            cancellationToken.ThrowIfCancellationRequested();
            folder.Progress.Report($"writing {phase.Name}.speedscope.json");
            using var json = new MemoryStream();
            // The weights keep their unit: perf's are nanoseconds of cpu-clock, ETW's sample counts.
            var file = Speedscope.SpeedscopeWriter.Convert(phase.Stacks!, $"{report.Manifest.Workload} {phase.Name}");
            foreach (var profile in file.Profiles)
            {
                profile.Unit = phase.Sampling?.WeightUnit ?? "none";
            }

            Speedscope.SpeedscopeWriter.Write(file, json);
            folder.Write($"{phase.Name}.speedscope.json", json.ToArray());
        }
    }
}
