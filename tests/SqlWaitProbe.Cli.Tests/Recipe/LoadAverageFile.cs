using System.Globalization;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Tests.Recipe;

/// <summary>The module's bundle file, <c>phases/&lt;phase&gt;/os/loadavg.csv</c>: its path, its columns, its writer and its reader.</summary>
internal static class LoadAverageFile
{
    /// <summary>Where the kernel publishes the load average.</summary>
    public const string Source = "/proc/loadavg";

    /// <summary>The file's name within a phase.</summary>
    public const string Name = "os/loadavg.csv";

    private const string Utc = "utc";
    private const string Load1 = "load1";

    /// <summary>The bundle-relative path of a phase's file.</summary>
    public static string PathOf(string phase) => BundlePaths.Phase(phase) + "/" + Name;

    /// <summary>The 1-minute average, the first field of <c>/proc/loadavg</c>.</summary>
    public static double Parse(string text) => double.Parse(text.Split(' ', 2)[0], NumberStyles.Float, CultureInfo.InvariantCulture);

    /// <summary>Writes the readings under the header.</summary>
    public static void Write(TextWriter writer, IEnumerable<(DateTime Utc, double Load1)> readings)
    {
        writer.Write($"{Utc},{Load1}\n");
        foreach (var (utc, load) in readings)
        {
            writer.Write(string.Create(CultureInfo.InvariantCulture, $"{utc:yyyy-MM-ddTHH:mm:ss.fffZ},{load:0.00}\n"));
        }
    }

    /// <summary>The phase's readings, or null when it has no such file; a bad value names the file and line.</summary>
    public static LoadAverageStats? Read(CaptureBundle bundle, string phase)
    {
        using var csv = CsvFile.Open(bundle, PathOf(phase), Utc, Load1);
        if (csv is null)
        {
            return null;
        }

        var values = new List<double>();
        while (csv.Read())
        {
            var load = csv.Number(Load1);
            values.Add(load >= 0 ? load : throw new BadInputException($"load1 {load} is negative", PathOf(phase), csv.LineNumber));
        }

        return new LoadAverageStats(values.Count, values.Count == 0 ? 0 : values.Average(), values.DefaultIfEmpty(0).Max());
    }
}
