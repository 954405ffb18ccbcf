using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// DMV snapshots every <c>--snapshot-interval</c> and their deltas: waits (<c>waits.csv</c>, shared with the other
/// engine's wait collector), sessions' CPU, and the server's latch and spinlock statistics (<c>dmv/*.csv</c>), which it
/// reads back for the scalability table and the findings.
/// </summary>
public sealed class DmvModule : IEngineCollectorModule<SqlServerRun>, IAnalysisModule
{
    /// <inheritdoc />
    public string Name => "dmv";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [SqlServerOptions.SnapshotInterval];

    /// <inheritdoc />
    public bool Runs(SqlServerRun run) => true;

    /// <inheritdoc />
    public ICollector Create(SqlServerRun run, PhaseContext phase) =>
        new DmvCollector(run.OpenAsync, run.FilterFor, run.Settings.SnapshotInterval, sessionScope: !run.Settings.Attach);

    /// <inheritdoc />
    public PhaseData Read(PhaseData phase, CaptureBundle bundle, CancellationToken cancellationToken) => Analysis.ServerTables.ServerTableReader.WithClerks(phase with
    {
        Spinlocks = ReadSpinlocks(bundle, BundlePaths.SpinlockStats(phase.Name)),
        Latches = ReadLatches(bundle, BundlePaths.LatchStats(phase.Name)),
    }, bundle);

    /// <inheritdoc />
    public IEnumerable<EvidenceSection> Sections(AnalysisResult analysis) => ServerTablesSection.Build(analysis);

    private static List<SpinlockRow>? ReadSpinlocks(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Dmv.SpinlockStats.Name, BundleColumns.Dmv.SpinlockStats.Spins);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<SpinlockRow>();
        while (csv.Read())
        {
            rows.Add(new SpinlockRow(csv.Text(BundleColumns.Dmv.SpinlockStats.Name), csv.OptionalNumber(BundleColumns.Dmv.SpinlockStats.Collisions) ?? 0, csv.Number(BundleColumns.Dmv.SpinlockStats.Spins),
                csv.OptionalNumber(BundleColumns.Dmv.SpinlockStats.Backoffs) ?? 0, csv.OptionalNumber(BundleColumns.Dmv.SpinlockStats.SleepTime) ?? 0));
        }

        return rows;
    }

    private static List<LatchRow>? ReadLatches(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Dmv.LatchStats.LatchClass, BundleColumns.Dmv.LatchStats.WaitTimeMs);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<LatchRow>();
        while (csv.Read())
        {
            rows.Add(new LatchRow(csv.Text(BundleColumns.Dmv.LatchStats.LatchClass), csv.OptionalNumber(BundleColumns.Dmv.LatchStats.WaitingRequestsCount) ?? 0, csv.Number(BundleColumns.Dmv.LatchStats.WaitTimeMs)));
        }

        return rows;
    }
}
