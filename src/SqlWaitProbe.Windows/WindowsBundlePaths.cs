using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Windows;

/// <summary>Bundle files only Windows captures write (docs/bundle-format.md).</summary>
public static class WindowsBundlePaths
{
    /// <summary>The raw ETW trace of a phase, zipped: <c>phases/&lt;phase&gt;/cpu/trace.etl.zip</c>.</summary>
    public static string EtwTrace(string phase) => BundlePaths.Phase(phase) + "/cpu/trace.etl.zip";

    /// <summary>PDH counters of a phase in PDH-CSV 4.0 layout: <c>phases/&lt;phase&gt;/pdh.csv</c>.</summary>
    public static string PdhCsv(string phase) => BundlePaths.Phase(phase) + "/pdh.csv";
}
