using System.CommandLine;
using System.Globalization;
using Npgsql;
using SqlWaitProbe.Cli.Commands;
using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Postgres.Attach;
using SqlWaitProbe.Postgres.Workloads;
using SqlWaitProbe.Windows.Selection;
using SqlWaitProbe.Workload.Capture;
using SqlWaitProbe.Workload.Options;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>A validated PostgreSQL capture request: every bad value is rejected here, before anything starts.</summary>
public sealed record PostgresCaptureRequest
{
    /// <summary>The workload to run; null in attach mode.</summary>
    public WorkloadDefinition? Workload { get; init; }

    /// <summary>Attach mode: the backends to watch; null when the probe runs a workload.</summary>
    public PostgresSessionFilter? Attach { get; init; }

    /// <summary>Workload name for logs and the manifest: <c>attach</c> in attach mode.</summary>
    public string WorkloadName => Workload?.Name ?? AttachPhase.Name;

    /// <summary>The phases and their length.</summary>
    public required CapturePlan Plan { get; init; }

    /// <summary>Connection string of an existing server, or null for an embedded one.</summary>
    public string? Server { get; init; }

    /// <summary>Bundle folder.</summary>
    public required string Output { get; init; }

    /// <summary><c>perf</c>, <c>none</c>, or null for perf when available.</summary>
    public string? Cpu { get; init; }

    /// <summary>perf sampling frequency.</summary>
    public int SampleHz { get; init; } = CpuCollectorSelector.DefaultPerfHz;

    /// <summary>perf data cap per phase.</summary>
    public int MaxPerfMegabytes { get; init; } = 1024;

    /// <summary>Hard cap on the whole capture.</summary>
    public TimeSpan MaxDuration { get; init; } = TimeSpan.FromHours(2);

    /// <summary>Stop when free disk under the bundle falls below this.</summary>
    public long MinFreeDiskMegabytes { get; init; } = 512;

    /// <summary>Skip analysis at the end.</summary>
    public bool NoAnalyze { get; init; }

    /// <summary>Print what would run and exit, connecting to nothing.</summary>
    public bool DryRun { get; init; }

    /// <summary>Debug logging on the console.</summary>
    public bool Verbose { get; init; }

    /// <summary>The options as given, secrets removed, for the manifest.</summary>
    public required IReadOnlyDictionary<string, string> Options { get; init; }

    /// <summary>Most sessions any phase opens.</summary>
    public int MaxSessions => Math.Max(1, Plan.Phases.Max(p => p.Threads));

    /// <summary>Reads and validates the <c>probe capture</c> options.</summary>
    public static PostgresCaptureRequest FromParse(ParseResult parse)
    {
        var attach = parse.GetValue(CaptureOptions.Attach);
        foreach (var option in new Option[] { CaptureOptions.Proc, CaptureOptions.Xe, CaptureOptions.Encrypt, CaptureOptions.TrustServerCertificate, CaptureOptions.ResetServerState, CaptureOptions.Symbols, CaptureOptions.Offline })
        {
            if (parse.GetResult(option) is { Implicit: false })
            {
                throw new BadInputException($"{option.Name} applies to --engine sqlserver only");
            }
        }

        if (attach)
        {
            return ForAttach(parse);
        }

        if (new Option[] { CaptureOptions.Application, CaptureOptions.Login, CaptureOptions.SessionIds }.Any(o => parse.GetResult(o) is { Implicit: false }))
        {
            throw new BadInputException("--application, --login and --session-ids filter attach mode; a workload run watches its own sessions");
        }

        var scale = parse.GetValue(CaptureOptions.Scale) ?? PostgresWorkloadCatalog.DefaultScale;
        var workload = ReadWorkload(parse.GetValue(CaptureOptions.Workload), parse.GetValue(CaptureOptions.SqlFile), scale);
        var threads = ThreadsParser.Parse(parse.GetValue(CaptureOptions.Threads) ?? "8");
        var durationText = parse.GetValue(CaptureOptions.Duration);
        var iterations = parse.GetValue(CaptureOptions.Iterations);
        if (durationText is not null && iterations is not null)
        {
            throw new BadInputException("give --duration or --iterations, not both");
        }

        if (iterations is <= 0)
        {
            throw new BadInputException("--iterations must be at least 1");
        }

        TimeSpan? duration = durationText is null ? null : DurationParser.Parse(durationText);
        return Common(parse, workload, null, CapturePlan.Build(threads, !parse.GetValue(CaptureOptions.NoBaseline), duration, iterations), workload.Name);
    }

    private static PostgresCaptureRequest Common(ParseResult parse, WorkloadDefinition? workload, PostgresSessionFilter? attach, CapturePlan plan, string name)
    {
        var cpu = parse.GetValue(CaptureOptions.Cpu)?.ToLowerInvariant();
        if (cpu is not (null or "perf" or "none"))
        {
            throw new BadInputException($"--cpu '{cpu}' is not available on Linux; use perf or none");
        }

        var hz = parse.GetValue(CaptureOptions.SampleHz);
        if (hz is < 1 or > 50_000)
        {
            throw new BadInputException("--sample-hz must be from 1 to 50000");
        }

        var maxPerf = parse.GetValue(CaptureOptions.MaxPerfMegabytes);
        if (maxPerf < 1)
        {
            throw new BadInputException("--max-perf-mb must be at least 1");
        }

        var server = ReadServer(parse.GetValue(CaptureOptions.Server), parse.GetValue(CaptureOptions.PasswordEnv), parse.GetValue(CaptureOptions.Database), parse.GetValue(CaptureOptions.User));
        var output = parse.GetValue(CaptureOptions.Output)?.FullName
            ?? Path.GetFullPath(Path.Combine("probe-runs", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + name));
        return new PostgresCaptureRequest
        {
            Workload = workload,
            Attach = attach,
            Plan = plan,
            Server = server,
            Output = output,
            Cpu = cpu,
            SampleHz = hz,
            MaxPerfMegabytes = maxPerf,
            MaxDuration = DurationParser.Parse(parse.GetValue(CaptureOptions.MaxDuration) ?? "2h", "--max-duration"),
            MinFreeDiskMegabytes = parse.GetValue(CaptureOptions.MinFreeDiskMegabytes),
            NoAnalyze = parse.GetValue(CaptureOptions.NoAnalyze),
            DryRun = parse.GetValue(CaptureOptions.DryRun),
            Verbose = parse.GetValue(Infrastructure.GlobalOptions.Verbose),
            Options = OptionsAsGiven(parse),
        };
    }

    private static PostgresCaptureRequest ForAttach(ParseResult parse)
    {
        if (parse.GetValue(CaptureOptions.Server) is null)
        {
            throw new BadInputException("--attach needs --server: there is no embedded server to attach to (give e.g. --server 'Host=db1;Username=me;Database=app')");
        }

        foreach (var option in new Option[] { CaptureOptions.Workload, CaptureOptions.SqlFile, CaptureOptions.Threads, CaptureOptions.Iterations, CaptureOptions.NoBaseline, CaptureOptions.Scale })
        {
            if (parse.GetResult(option) is { Implicit: false })
            {
                throw new BadInputException($"{option.Name} does not apply to --attach: attach mode runs no workload, it watches the server's own sessions");
            }
        }

        var duration = DurationParser.Parse(parse.GetValue(CaptureOptions.Duration) ?? "30s");
        var filter = new PostgresSessionFilter
        {
            Database = parse.GetValue(CaptureOptions.Database),
            Application = parse.GetValue(CaptureOptions.Application),
            Login = parse.GetValue(CaptureOptions.Login),
            Pids = ReadPids(parse.GetValue(CaptureOptions.SessionIds)),
        };
        return Common(parse, null, filter, new CapturePlan { Phases = [new PhasePlan(AttachPhase.Name, 0)], Duration = duration }, AttachPhase.Name);
    }

    private static IReadOnlyList<int> ReadPids(string? text)
    {
        if (text is null)
        {
            return [];
        }

        var pids = new List<int>();
        foreach (var part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) || pid < 1)
            {
                throw new BadInputException($"--session-ids: '{part}' is not a backend pid (a positive whole number)");
            }

            pids.Add(pid);
        }

        return pids.Count > 0 ? pids : throw new BadInputException("--session-ids: give at least one backend pid, e.g. 123,456");
    }

    private static WorkloadDefinition ReadWorkload(string? name, FileInfo? sqlFile, double scale)
    {
        if (name is not null && sqlFile is not null)
        {
            throw new BadInputException("give --workload or --sql, not both");
        }

        if (sqlFile is not null)
        {
            if (!sqlFile.Exists)
            {
                throw new BadInputException("no such file", sqlFile.FullName);
            }

            var sql = File.ReadAllText(sqlFile.FullName).Trim();
            if (sql.Length == 0)
            {
                throw new BadInputException("the SQL file is empty", sqlFile.FullName);
            }

            return new WorkloadDefinition
            {
                Name = "custom",
                Engine = "postgres",
                Summary = $"The SQL of {sqlFile.Name}.",
                KnownToShow = "(user workload)",
                Setup = [],
                Query = sql,
            };
        }

        if (name is null)
        {
            throw new BadInputException("give --workload NAME (see 'probe workloads list --engine postgres') or --sql FILE");
        }

        return PostgresWorkloadCatalog.Get(name, scale);
    }

    private static string? ReadServer(string? server, string? passwordEnv, string? database, string? user)
    {
        if (server is null)
        {
            if (database is not null || user is not null || passwordEnv is not null)
            {
                throw new BadInputException("--database, --user and --password-env need --server; the embedded server uses its own");
            }

            return null;
        }

        NpgsqlConnectionStringBuilder builder;
        try
        {
            builder = new NpgsqlConnectionStringBuilder(server);
        }
        catch (Exception e) when (e is ArgumentException or FormatException or InvalidCastException)
        {
            throw new BadInputException("--server is not a valid PostgreSQL connection string (expected e.g. 'Host=db1;Username=me;Database=app'): " + e.Message.Split('\n')[0]);
        }

        if (string.IsNullOrEmpty(builder.Host))
        {
            throw new BadInputException("--server connection string has no Host");
        }

        if (database is not null)
        {
            builder.Database = database;
        }

        if (user is not null)
        {
            builder.Username = user;
        }

        if (passwordEnv is not null)
        {
            builder.Password = Environment.GetEnvironmentVariable(passwordEnv)
                ?? throw new BadInputException($"--password-env: the environment variable {passwordEnv} is not set");
        }

        return builder.ConnectionString;
    }

    private static Dictionary<string, string> OptionsAsGiven(ParseResult parse)
    {
        var options = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var option in CaptureOptions.All)
        {
            var result = parse.GetResult(option);
            if (result is null || result.Implicit)
            {
                continue;
            }

            var value = result.Tokens.Count == 0 ? "true" : string.Join(",", result.Tokens.Select(t => t.Value));
            options[option.Name] = option == CaptureOptions.Server ? SecretRedactor.ConnectionString(value) : value;
        }

        return options;
    }
}
