using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>
/// How many samples perf lost in a recording: <c>perf report --stats</c> counts them per event
/// (<c>LOST_SAMPLES events: N</c> under <c>cpu-clock stats:</c>), the same total perf report prints as
/// "Total Lost Samples" and perf script warns about. It adds up the kernel's PERF_RECORD_LOST records (ring
/// buffer full: perf record did not drain it in time) and PERF_RECORD_LOST_SAMPLES; <c>perf script</c> itself
/// prints neither. Reading the stats does not unwind stacks, so it costs little next to perf script.
/// </summary>
public static partial class PerfLostSamples
{
    /// <summary>The perf command line after <c>perf</c>.</summary>
    public static IReadOnlyList<string> Arguments(string dataPath) => ["report", "--stats", "-i", dataPath];

    /// <summary>Runs <c>perf report --stats</c> on <paramref name="dataPath"/>; null when perf could not tell.</summary>
    public static async Task<long?> ReadAsync(string dataPath, CancellationToken cancellationToken)
    {
        var info = Core.Runtime.ChildEnvironment.Minimal(new ProcessStartInfo("perf") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true }, "PERF_");
        foreach (var a in Arguments(dataPath))
        {
            info.ArgumentList.Add(a);
        }

        using var perf = Process.Start(info);
        if (perf is null)
        {
            return null;
        }

        perf.StandardInput.Close();
        var errors = perf.StandardError.ReadToEndAsync(CancellationToken.None);
        var text = await perf.StandardOutput.ReadToEndAsync(cancellationToken);
        await perf.WaitForExitAsync(cancellationToken);
        await errors;
        return perf.ExitCode == 0 ? Parse(text) : null;
    }

    /// <summary>
    /// The lost samples in <c>perf report --stats</c> output: the sum of the per-event <c>LOST_SAMPLES events</c>
    /// lines (the aggregated table above them counts records and carries a percentage). 0 when perf lost none
    /// (it then prints no such line); null when the text is not perf's stats.
    /// </summary>
    public static long? Parse(string statsText)
    {
        ArgumentNullException.ThrowIfNull(statsText);
        if (!statsText.Contains("SAMPLE events:", StringComparison.Ordinal))
        {
            return null;
        }

        long lost = 0;
        foreach (Match m in PerEventLost().Matches(statsText))
        {
            lost += long.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture);
        }

        return lost;
    }

    [GeneratedRegex(@"^\s*LOST_SAMPLES events:\s*(\d+)\s*$", RegexOptions.Multiline)]
    private static partial Regex PerEventLost();
}
