using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>
/// What a phase's PDH samples become: <c>pdh.csv</c> (PDH-CSV 4.0, opens in perfmon and relog), written here, and
/// rows of the phase's <c>series.csv</c>, handed to <see cref="PhaseContext.Series"/> so the phase runner writes
/// them with every other collector's rows in its one write of that file. Portable: no PDH call.
/// </summary>
public static class PdhPhaseOutput
{
    /// <summary>Writes <c>pdh.csv</c> and adds the mapped series; returns how many series points were added.</summary>
    public static int Write(PhaseContext phase, PdhTable table, string serverProcess, int logicalCpus)
    {
        ArgumentNullException.ThrowIfNull(phase);
        AtomicFile.WriteText(phase.PathFor(BundlePaths.PdhCsv(phase.Name)), writer => PdhCsvWriter.Write(table, writer));
        var points = PdhSeriesMapper.Map(table, serverProcess, logicalCpus);
        foreach (var point in points)
        {
            phase.Series.Add(point.Utc, point.Series, point.Value);
        }

        return points.Count;
    }
}
