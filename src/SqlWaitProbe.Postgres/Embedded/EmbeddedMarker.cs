using System.Text.Json;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Postgres.Embedded;

/// <summary>The marker file an embedded server's folder holds, so <c>probe cleanup</c> can find it after a <c>kill -9</c>.</summary>
public sealed record EmbeddedMarker
{
    /// <summary>File name inside the server's folder.</summary>
    public const string FileName = "probe-marker.json";

    /// <summary>The capture's run id.</summary>
    public string RunId { get; init; } = "";

    /// <summary>Process id of the probe that owns the server.</summary>
    public int ProbePid { get; init; }

    /// <summary>Process id of the postmaster, once started.</summary>
    public int? ServerPid { get; init; }

    /// <summary>The data folder.</summary>
    public string DataFolder { get; init; } = "";

    /// <summary>The binaries used (for <c>pg_ctl stop</c>).</summary>
    public string BinFolder { get; init; } = "";

    /// <summary>OS user the server runs as, when not the probe's own.</summary>
    public string? RunAs { get; init; }

    /// <summary>When the server folder was created.</summary>
    public DateTime CreatedUtc { get; init; }

    /// <summary>Writes the marker into <paramref name="folder"/>.</summary>
    public void Write(string folder)
    {
        var path = Path.Combine(folder, FileName);
        Core.Files.AtomicFile.WriteAllText(path, JsonSerializer.Serialize(this, ProbeJson.Options));
    }

    /// <summary>Reads the marker of <paramref name="folder"/>, or null when absent or unreadable.</summary>
    public static EmbeddedMarker? TryRead(string folder)
    {
        try
        {
            return JsonSerializer.Deserialize<EmbeddedMarker>(File.ReadAllText(Path.Combine(folder, FileName)), ProbeJson.Options);
        }
        catch (Exception e) when (e is IOException or JsonException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
