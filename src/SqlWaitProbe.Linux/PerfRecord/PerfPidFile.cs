using System.Text.Json;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>A running <c>perf record</c> started by probe, written to the temp folder so <c>probe cleanup</c> can stop it after a <c>kill -9</c>.</summary>
public sealed record PerfPidFile
{
    /// <summary>File name prefix in the temp folder.</summary>
    public const string Prefix = "probe-perf-";

    /// <summary>The capture's run id.</summary>
    public string RunId { get; init; } = "";

    /// <summary>Process id of the probe that started perf.</summary>
    public int ProbePid { get; init; }

    /// <summary>Process id of <c>perf record</c>.</summary>
    public int PerfPid { get; init; }

    /// <summary>The perf data file it writes.</summary>
    public string DataPath { get; init; } = "";

    /// <summary>Path of the pid file for a run and phase.</summary>
    public static string PathFor(string runId, string phase) => Path.Combine(Path.GetTempPath(), $"{Prefix}{runId}-{phase}.json");

    /// <summary>Writes the file.</summary>
    public void Write(string path) => File.WriteAllText(path, JsonSerializer.Serialize(this, ProbeJson.Options));

    /// <summary>Reads a pid file, or null when unreadable.</summary>
    public static PerfPidFile? TryRead(string path)
    {
        try
        {
            return JsonSerializer.Deserialize<PerfPidFile>(File.ReadAllText(path), ProbeJson.Options);
        }
        catch (Exception e) when (e is IOException or JsonException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
