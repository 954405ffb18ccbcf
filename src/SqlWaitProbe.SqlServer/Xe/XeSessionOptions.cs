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

    /// <summary>
    /// The phase the session collects for; it goes into the event-file name so that one phase's files (found by pattern)
    /// never include another's. Null outside a phase (dry-run listings, cleanup).
    /// </summary>
    public string? Phase { get; init; }

    /// <summary>Session name for a stream.</summary>
    public string SessionName(XeStream stream) => $"probe_{RunId}_{stream.ToString().ToLowerInvariant()}";

    /// <summary>
    /// The event-file name for a stream without folder or extension: <c>probe_&lt;runId&gt;_&lt;phase&gt;_&lt;stream&gt;</c>;
    /// the server adds <c>_0_&lt;number&gt;.xel</c>. Characters of the phase other than ASCII letters and digits become
    /// <c>_</c>, since the name is a T-SQL literal and a file name on the server.
    /// </summary>
    public string FileName(XeStream stream) => Phase is null
        ? SessionName(stream)
        : $"probe_{RunId}_{new string([.. Phase.Select(c => char.IsAsciiLetterOrDigit(c) ? c : '_')])}_{stream.ToString().ToLowerInvariant()}";
}
