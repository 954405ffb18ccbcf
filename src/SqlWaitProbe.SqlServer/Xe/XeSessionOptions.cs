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

    /// <summary>
    /// True when the server lists the <c>package0.callstack_rva</c> action in <c>sys.dm_xe_objects</c> (asked at capture
    /// time with <see cref="XeSessionBuilder.DiscoverCallstackActions"/>, not inferred from the version); false falls back to
    /// the raw <c>package0.callstack</c>.
    /// </summary>
    public bool CallstackRva { get; init; } = true;

    /// <summary>Session name for a stream.</summary>
    public string SessionName(XeStream stream) => $"probe_{RunId}_{stream.ToString().ToLowerInvariant()}";
}
