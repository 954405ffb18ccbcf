namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// One thing a run started or made outside its own folder, recorded in the run folder before it exists and
/// completed once it does: a child process (with its identity), a folder or file elsewhere (with its device and
/// inode), a trace session. <c>probe cleanup</c> acts only on what a resource names and only after checking that
/// it is still the very thing recorded.
/// </summary>
public sealed record RunResource
{
    /// <summary>Name inside the run (file <c>resource-NAME.json</c>), e.g. <c>perf-load</c>.</summary>
    public string Name { get; init; } = "";

    /// <summary>What it is, for the user: "perf record of phase load".</summary>
    public string Description { get; init; } = "";

    /// <summary>The child process, once started.</summary>
    public ProcessIdentity? Process { get; init; }

    /// <summary>An argument the process was started with (its output file or data folder); checked before a signal.</summary>
    public string? ProcessArgument { get; init; }

    /// <summary>The first signal cleanup sends (SIGINT for a PostgreSQL fast shutdown, SIGKILL for perf); SIGKILL follows if it lingers.</summary>
    public int StopSignal { get; init; } = 15;

    /// <summary>A folder or file the run made outside its run folder (created exclusively).</summary>
    public string? Path { get; init; }

    /// <summary>Device of <see cref="Path"/> when it was made.</summary>
    public ulong? Device { get; init; }

    /// <summary>Owner uid of <see cref="Path"/> when it was made.</summary>
    public uint? Uid { get; init; }

    /// <summary>Inode of <see cref="Path"/> when it was made; a path whose inode differs is not the run's.</summary>
    public ulong? Inode { get; init; }

    /// <summary>Completes <see cref="Path"/> with the identity of what is there now (call right after making it).</summary>
    public RunResource WithPathIdentity() => PosixFile.LStat(Path ?? "") is { } s ? this with { Device = s.Device, Inode = s.Inode, Uid = s.Uid } : this;

    /// <summary>An ETW session the run started (Windows).</summary>
    public string? TraceSession { get; init; }

    /// <summary>An extended-event session the run created on a SQL Server.</summary>
    public string? XeSession { get; init; }

    /// <summary>
    /// The event-file names <see cref="XeSession"/> was given (no folder, rollover suffix or extension, e.g.
    /// <c>probe_RUN_load_pages</c>): the server adds <c>_0_&lt;n&gt;.xel</c>, and <c>probe cleanup --server</c> deletes
    /// exactly those files of a server on this machine.
    /// </summary>
    public IReadOnlyList<string> XeEventFiles { get; init; } = [];

    /// <summary>
    /// A server setting an experiment changed (engine-qualified name, e.g. <c>postgres work_mem</c>); recorded before
    /// the change is sent, forgotten once it is restored. <c>probe cleanup</c> names it and its
    /// <see cref="RestoreStatements"/>, and sends them only when the user confirms.
    /// </summary>
    public string? ChangedSetting { get; init; }

    /// <summary>The server the setting was changed on, credentials removed.</summary>
    public string? SettingServer { get; init; }

    /// <summary>The setting's value in effect before the change.</summary>
    public string? SettingBefore { get; init; }

    /// <summary>The statements that put the setting back as it was, in order.</summary>
    public IReadOnlyList<string> RestoreStatements { get; init; } = [];

    /// <summary>How to reach the server again (as the experiment file named it; never a password, only the variable holding it).</summary>
    public ServerSettings.ExperimentTarget? SettingTarget { get; init; }

    /// <summary>The server's identity when the setting was changed; a restore is sent only to a server with this identity.</summary>
    public string? SettingIdentity { get; init; }
}
