using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// Extended-event sessions of the debug channel (<c>--xe pages</c>, <c>latches</c>), filtered to the workload, their
/// events converted into <c>xe/*.csv</c>; the page events are read back for the report's per-second page timeline.
/// </summary>
public sealed class XeModule : IEngineCollectorModule<SqlServerRun>, IAnalysisModule
{
    /// <inheritdoc />
    public string Name => "xe";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [SqlServerOptions.Xe, SqlServerOptions.MaxXeMegabytes];

    /// <inheritdoc />
    public bool Runs(SqlServerRun run) => run.Settings.XeStreams.Count > 0;

    /// <inheritdoc />
    public ICollector Create(SqlServerRun run, PhaseContext phase)
    {
        var settings = run.Settings;
        var xe = new XeCollector(run.OpenAsync, p => new XeSessionOptions
        {
            RunId = settings.RunId,
            Phase = p.Name,
            Filter = run.FilterFor(p),
            MaxFileMegabytes = settings.MaxXeMegabytes,
        }, settings.XeStreams, settings.Scope);
        run.Track(xe);
        return xe;
    }

    /// <inheritdoc />
    public PhaseData Read(PhaseData phase, CaptureBundle bundle, CancellationToken cancellationToken) => Analysis.ServerTables.ServerTableReader.WithClerkHistogram(
        ReadXePages(bundle, BundlePaths.XePageEvents(phase.Name), phase.Phase.StartUtc, phase.Phase.EndUtc, cancellationToken) is { } pages ? phase with { XePages = pages } : phase, bundle);

    /// <inheritdoc />
    public IEnumerable<EvidenceSection> Sections(AnalysisResult analysis) => ClerkHistogramSection.Build(analysis);

    private static XePageStats? ReadXePages(CaptureBundle bundle, string relative, DateTime phaseStart, DateTime phaseEnd, CancellationToken cancellationToken)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.XePageEvents.Utc, BundleColumns.XePageEvents.Event, BundleColumns.XePageEvents.MemoryClerkName, BundleColumns.XePageEvents.Pages);
        if (csv is null)
        {
            return null;
        }

        var stats = new XePageStats();
        DateTime? origin = phaseStart == default ? null : phaseStart;
        // Bundles written before each phase had its own event files hold the earlier phases' events too.
        var windowed = phaseStart != default && phaseEnd > phaseStart;
        while (csv.Read())
        {
            if ((stats.Events & 0xFFFF) == 0)
            {
                cancellationToken.ThrowIfCancellationRequested();
            }

            var utc = csv.Utc(BundleColumns.XePageEvents.Utc);
            if (windowed && (utc < phaseStart || utc > phaseEnd))
            {
                continue;
            }

            origin ??= utc;
            var key = ((long)Math.Floor((utc - origin.Value).TotalSeconds), string.Intern(csv.Text(BundleColumns.XePageEvents.MemoryClerkName)));
            var pages = csv.Number(BundleColumns.XePageEvents.Pages);
            var current = stats.PerSecond.GetValueOrDefault(key);
            var ev = csv.Text(BundleColumns.XePageEvents.Event);
            stats.Events++;
            if (ev.Contains("free", StringComparison.OrdinalIgnoreCase))
            {
                stats.FreeEvents++;
                stats.PerSecond[key] = (current.Allocated, current.Freed + pages);
            }
            else if (ev.Contains("alloc", StringComparison.OrdinalIgnoreCase))
            {
                stats.AllocEvents++;
                stats.PerSecond[key] = (current.Allocated + pages, current.Freed);
            }
            else
            {
                throw new BadInputException($"event '{ev}' is neither page_allocated nor page_freed", relative, csv.LineNumber);
            }
        }

        return stats;
    }
}
