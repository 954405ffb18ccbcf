using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis.ServerTables;

/// <summary>
/// Reads dmv/memory_clerks.csv and xe/clerk_histogram.csv of a phase, each for the module that writes it (the DMV and
/// the XE collector), into the one <see cref="ServerTableData"/> the report shows.
/// </summary>
public static class ServerTableReader
{
    /// <summary><paramref name="phase"/> with its memory clerks, when the phase has the file.</summary>
    public static PhaseData WithClerks(PhaseData phase, CaptureBundle bundle) =>
        ReadClerks(bundle, BundlePaths.MemoryClerks(phase.Name)) is { } clerks
            ? phase with { ServerTables = (phase.ServerTables ?? new ServerTableData()) with { Clerks = clerks } }
            : phase;

    /// <summary><paramref name="phase"/> with its XE clerk histogram, when the phase has the file.</summary>
    public static PhaseData WithClerkHistogram(PhaseData phase, CaptureBundle bundle) =>
        ReadHistogram(bundle, BundlePaths.XeClerkHistogram(phase.Name)) is { } histogram
            ? phase with { ServerTables = (phase.ServerTables ?? new ServerTableData()) with { ClerkHistogram = histogram } }
            : phase;

    private static List<MemoryClerkRow>? ReadClerks(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, "type", "name", "pages_kb" + BundleColumns.Dmv.StartSuffix, "pages_kb" + BundleColumns.Dmv.EndSuffix);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<MemoryClerkRow>();
        var node = csv.HasColumn(BundleColumns.Dmv.MemoryClerks.Node);
        while (csv.Read())
        {
            rows.Add(new MemoryClerkRow(csv.Text("type"), csv.Text("name"), node ? csv.Text(BundleColumns.Dmv.MemoryClerks.Node) : null,
                csv.Count("pages_kb" + BundleColumns.Dmv.StartSuffix), csv.Count("pages_kb" + BundleColumns.Dmv.EndSuffix)));
        }

        return rows;
    }

    private static List<(string, double)>? ReadHistogram(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, "value", "count");
        if (csv is null)
        {
            return null;
        }

        var rows = new List<(string, double)>();
        while (csv.Read())
        {
            rows.Add((csv.Text("value"), csv.Count("count")));
        }

        return rows;
    }
}
