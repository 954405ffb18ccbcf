using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>What an XE session of one capture looks like.</summary>
public sealed record XeSessionOptions
{
    /// <summary>The capture's run id (session names are <c>probe_&lt;runId&gt;_&lt;stream&gt;</c>).</summary>
    public required string RunId { get; init; }

    /// <summary>Which sessions to watch (workload session ids, or attach-mode filters).</summary>
    public required SessionFilter Filter { get; init; }

    /// <summary>Total size cap of the event files, MB (<c>--max-xe-mb</c>).</summary>
    public int MaxFileMegabytes { get; init; } = 512;

    /// <summary>The server's major version (16 = SQL Server 2022), deciding <c>callstack_rva</c> vs <c>callstack</c>.</summary>
    public int MajorVersion { get; init; } = 16;

    /// <summary>Session name for a stream.</summary>
    public string SessionName(XeStream stream) => $"probe_{RunId}_{stream.ToString().ToLowerInvariant()}";
}
