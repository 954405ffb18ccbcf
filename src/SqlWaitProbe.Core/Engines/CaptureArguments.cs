namespace SqlWaitProbe.Core.Engines;

/// <summary>
/// The options of <c>probe capture</c> as the user typed them, before any engine reads them. The command line
/// fills this record and nothing more; each engine validates what applies to it, and the engine-neutral layer
/// validates the rest (phases, limits, OS collectors). A new engine reads its options from here.
/// </summary>
public sealed record CaptureArguments
{
    /// <summary><c>--engine</c>, lower case.</summary>
    public string Engine { get; init; } = "postgres";

    /// <summary><c>--server</c>: a connection string, or a SQL Server name.</summary>
    public string? Server { get; init; }

    /// <summary><c>--workload</c>.</summary>
    public string? Workload { get; init; }

    /// <summary><c>--sql</c>: full path of the workload SQL file.</summary>
    public string? SqlFile { get; init; }

    /// <summary><c>--proc</c>.</summary>
    public string? Proc { get; init; }

    /// <summary><c>--threads</c> as typed.</summary>
    public string Threads { get; init; } = "8";

    /// <summary><c>--duration</c> as typed.</summary>
    public string? Duration { get; init; }

    /// <summary><c>--iterations</c>.</summary>
    public long? Iterations { get; init; }

    /// <summary><c>--no-baseline</c>.</summary>
    public bool NoBaseline { get; init; }

    /// <summary><c>--scale</c>.</summary>
    public double? Scale { get; init; }

    /// <summary><c>--sample-hz</c>.</summary>
    public int SampleHz { get; init; }

    /// <summary><c>--cpu</c>, lower case.</summary>
    public string? Cpu { get; init; }

    /// <summary><c>--offcpu</c>: <c>on</c> or <c>off</c>, or null for the default.</summary>
    public string? OffCpu { get; init; }

    /// <summary><c>--output</c>: full path of the bundle folder.</summary>
    public string? Output { get; init; }

    /// <summary><c>--dry-run</c>.</summary>
    public bool DryRun { get; init; }

    /// <summary><c>--attach</c>.</summary>
    public bool Attach { get; init; }

    /// <summary><c>--database</c>.</summary>
    public string? Database { get; init; }

    /// <summary><c>--user</c>.</summary>
    public string? User { get; init; }

    /// <summary><c>--password-env</c>.</summary>
    public string? PasswordEnv { get; init; }

    /// <summary><c>--encrypt</c>.</summary>
    public bool Encrypt { get; init; }

    /// <summary><c>--trust-server-certificate</c>.</summary>
    public bool TrustServerCertificate { get; init; }

    /// <summary><c>--xe</c> values.</summary>
    public IReadOnlyList<string> Xe { get; init; } = [];

    /// <summary><c>--snapshot-interval</c> as typed.</summary>
    public string SnapshotInterval { get; init; } = "1s";

    /// <summary><c>--application</c>.</summary>
    public string? Application { get; init; }

    /// <summary><c>--login</c>.</summary>
    public string? Login { get; init; }

    /// <summary><c>--session-ids</c> as typed.</summary>
    public string? SessionIds { get; init; }

    /// <summary><c>--reset-server-state</c>.</summary>
    public bool ResetServerState { get; init; }

    /// <summary><c>--yes</c>.</summary>
    public bool Yes { get; init; }

    /// <summary><c>--max-duration</c> as typed.</summary>
    public string MaxDuration { get; init; } = "2h";

    /// <summary><c>--call-graph</c>: auto, fp, dwarf or lbr (null: auto).</summary>
    public string? CallGraph { get; init; }

    /// <summary><c>--max-perf-mb</c>.</summary>
    public int MaxPerfMegabytes { get; init; } = 1024;

    /// <summary><c>--max-xe-mb</c>.</summary>
    public int MaxXeMegabytes { get; init; } = 512;

    /// <summary><c>--min-free-disk-mb</c>.</summary>
    public int MinFreeDiskMegabytes { get; init; } = 512;

    /// <summary><c>--symbols</c>.</summary>
    public string? Symbols { get; init; }

    /// <summary><c>--offline</c>.</summary>
    public bool Offline { get; init; }

    /// <summary><c>--force</c>: capture into a non-empty folder that is not a bundle.</summary>
    public bool Force { get; init; }

    /// <summary><c>--no-analyze</c>.</summary>
    public bool NoAnalyze { get; init; }

    /// <summary><c>-v</c>.</summary>
    public bool Verbose { get; init; }

    /// <summary>Every option the user gave explicitly, by its long name (<c>--server</c>), with its tokens joined by commas (<c>true</c> for a flag), in command-line help order.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Given { get; init; } = [];

    /// <summary>True when the user gave <paramref name="option"/> (a long name such as <c>--xe</c>) explicitly.</summary>
    public bool IsGiven(string option) => Given.Any(g => g.Key == option);

    /// <summary>
    /// The options as given, for the manifest, each value passed through <paramref name="redact"/>
    /// (option name, value) so secrets never reach the bundle.
    /// </summary>
    public Dictionary<string, string> AsGiven(Func<string, string, string> redact)
    {
        var options = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (name, value) in Given)
        {
            options[name] = redact(name, value);
        }

        return options;
    }
}
