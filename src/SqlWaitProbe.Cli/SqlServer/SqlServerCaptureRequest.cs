using System.CommandLine;
using System.Globalization;
using SqlWaitProbe.Cli.Capture;
using SqlWaitProbe.Cli.Commands;
using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.SqlServer.Capture;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Workloads;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.Windows.Selection;
using SqlWaitProbe.Workload.Capture;
using SqlWaitProbe.Workload.Options;

namespace SqlWaitProbe.Cli.SqlServer;

/// <summary>A SQL Server capture as the command line asked for it, validated.</summary>
public sealed record SqlServerCaptureRequest
{
    /// <summary>Connection settings (the password already resolved, never from argv).</summary>
    public required SqlServerConnectionSettings Connection { get; init; }

    /// <summary>The SQL Server capture settings.</summary>
    public required SqlServerCaptureSettings Capture { get; init; }

    /// <summary>Phases (workload runs) or the attach window.</summary>
    public required CapturePlan Plan { get; init; }

    /// <summary>Bundle folder.</summary>
    public required string Output { get; init; }

    /// <summary>CPU stack collector: <c>perf</c>, <c>etw</c>, <c>none</c>, or null for the platform default.</summary>
    public string? Cpu { get; init; }

    /// <summary>Sampling frequency.</summary>
    public int SampleHz { get; init; } = CpuCollectorSelector.DefaultPerfHz;

    /// <summary>True when <c>--sample-hz</c> was given; otherwise ETW keeps its own 1 ms default.</summary>
    public bool SampleHzGiven { get; init; }

    /// <summary><c>--symbols</c>: the symbol path for ETW stacks (Windows).</summary>
    public string? Symbols { get; init; }

    /// <summary><c>--offline</c>: only cached symbols (Windows).</summary>
    public bool Offline { get; init; }

    /// <summary>Perf data cap per phase, MB.</summary>
    public int MaxPerfMegabytes { get; init; } = 1024;

    /// <summary>Hard cap on the capture.</summary>
    public TimeSpan MaxDuration { get; init; } = TimeSpan.FromHours(2);

    /// <summary>--min-free-disk-mb.</summary>
    public long MinFreeDiskMegabytes { get; init; } = 512;

    /// <summary>Skip analysis.</summary>
    public bool NoAnalyze { get; init; }

    /// <summary>-v.</summary>
    public bool Verbose { get; init; }

    /// <summary>--yes.</summary>
    public bool Yes { get; init; }

    /// <summary>--dry-run.</summary>
    public bool DryRun { get; init; }

    /// <summary>The options as given, secrets removed (for the manifest).</summary>
    public required IReadOnlyDictionary<string, string> Options { get; init; }

    /// <summary>Parses and validates; <paramref name="readPassword"/> prompts for a password (not called in a dry run).</summary>
    public static SqlServerCaptureRequest FromParse(ParseResult parse, Func<string, string>? readPassword = null)
    {
        var dryRun = parse.GetValue(CaptureOptions.DryRun);
        var attach = parse.GetValue(CaptureOptions.Attach);
        var server = parse.GetValue(CaptureOptions.Server)
            ?? throw new BadInputException("--engine sqlserver needs --server (a server name such as localhost or host,1433, or a SqlClient connection string)");
        var runId = Guid.NewGuid().ToString("N")[..10];
        var scale = parse.GetValue(CaptureOptions.Scale) ?? 1.0;
        var workload = ReadWorkload(parse, attach, scale);
        if (attach && parse.GetValue(CaptureOptions.ResetServerState))
        {
            throw new BadInputException("--reset-server-state clears statistics for the whole server and is refused in attach mode; it exists only for workload reproduction runs");
        }

        var durationText = parse.GetValue(CaptureOptions.Duration);
        var iterations = parse.GetValue(CaptureOptions.Iterations);
        if (durationText is not null && iterations is not null)
        {
            throw new BadInputException("give --duration or --iterations, not both");
        }

        if (attach && iterations is not null)
        {
            throw new BadInputException("attach mode runs no workload: give --duration, not --iterations");
        }

        if (iterations is <= 0)
        {
            throw new BadInputException("--iterations must be at least 1");
        }

        TimeSpan? duration = durationText is null ? null : DurationParser.Parse(durationText);
        var plan = attach
            ? new CapturePlan { Phases = [new PhasePlan("attach", 0)], Duration = duration ?? TimeSpan.FromSeconds(30) }
            : CapturePlan.Build(ThreadsParser.Parse(parse.GetValue(CaptureOptions.Threads) ?? "8"), !parse.GetValue(CaptureOptions.NoBaseline), duration, iterations);

        var cpu = parse.GetValue(CaptureOptions.Cpu)?.ToLowerInvariant();
        // Refuses an unknown collector, and one this OS lacks (ETW off Windows, perf on Windows), before anything
        // connects or a dry run describes a capture that could not run.
        Windows.Selection.CpuCollectorSelector.ForThisMachine(cpu, null);

        var hz = parse.GetValue(CaptureOptions.SampleHz);
        if (hz is < 1 or > 50_000)
        {
            throw new BadInputException("--sample-hz must be from 1 to 50000");
        }

        var maxXe = parse.GetValue(CaptureOptions.MaxXeMegabytes);
        if (maxXe < 4)
        {
            throw new BadInputException("--max-xe-mb must be at least 4");
        }

        var user = parse.GetValue(CaptureOptions.User);
        var password = ReadPassword(user, parse.GetValue(CaptureOptions.PasswordEnv), dryRun, readPassword);
        var connection = new SqlServerConnectionSettings
        {
            Server = server,
            User = user,
            Password = password,
            Encrypt = parse.GetValue(CaptureOptions.Encrypt),
            TrustServerCertificate = parse.GetValue(CaptureOptions.TrustServerCertificate),
            Database = attach ? null : parse.GetValue(CaptureOptions.Database),
            RunId = runId,
        };
        var settings = new SqlServerCaptureSettings
        {
            RunId = runId,
            Workload = workload,
            XeStreams = ReadXe(parse.GetValue(CaptureOptions.Xe) ?? []),
            SnapshotInterval = DurationParser.Parse(parse.GetValue(CaptureOptions.SnapshotInterval) ?? "1s", "--snapshot-interval"),
            ResetServerState = parse.GetValue(CaptureOptions.ResetServerState),
            MaxXeMegabytes = maxXe,
            FilterDatabase = attach ? parse.GetValue(CaptureOptions.Database) : null,
            FilterApplication = parse.GetValue(CaptureOptions.Application),
            FilterLogin = parse.GetValue(CaptureOptions.Login),
            FilterSessionIds = ReadSessionIds(parse.GetValue(CaptureOptions.SessionIds)),
        };
        if (!attach && (settings.FilterApplication ?? settings.FilterLogin) is not null || !attach && settings.FilterSessionIds.Count > 0)
        {
            throw new BadInputException("--application, --login and --session-ids filter attach mode; a workload run watches its own sessions");
        }

        var name = workload?.Name.Replace(':', '-') ?? "attach";
        return new SqlServerCaptureRequest
        {
            Connection = connection,
            Capture = settings,
            Plan = plan,
            Output = parse.GetValue(CaptureOptions.Output)?.FullName
                ?? Path.GetFullPath(Path.Combine("probe-runs", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + name)),
            Cpu = cpu,
            SampleHz = hz,
            SampleHzGiven = parse.GetResult(CaptureOptions.SampleHz) is { Implicit: false },
            Symbols = parse.GetValue(CaptureOptions.Symbols),
            Offline = parse.GetValue(CaptureOptions.Offline),
            MaxPerfMegabytes = parse.GetValue(CaptureOptions.MaxPerfMegabytes),
            MaxDuration = DurationParser.Parse(parse.GetValue(CaptureOptions.MaxDuration) ?? "2h", "--max-duration"),
            MinFreeDiskMegabytes = parse.GetValue(CaptureOptions.MinFreeDiskMegabytes),
            NoAnalyze = parse.GetValue(CaptureOptions.NoAnalyze),
            Verbose = parse.GetValue(Infrastructure.GlobalOptions.Verbose),
            Yes = parse.GetValue(CaptureOptions.Yes),
            DryRun = dryRun,
            Options = OptionsAsGiven(parse),
        };
    }

    private static WorkloadDefinition? ReadWorkload(ParseResult parse, bool attach, double scale)
    {
        var name = parse.GetValue(CaptureOptions.Workload);
        var sql = parse.GetValue(CaptureOptions.SqlFile);
        var proc = parse.GetValue(CaptureOptions.Proc);
        var given = new[] { name is not null, sql is not null, proc is not null }.Count(g => g);
        if (attach)
        {
            return given == 0 ? null : throw new BadInputException("--attach runs no workload: drop --workload, --sql and --proc");
        }

        return given switch
        {
            0 => throw new BadInputException("give --workload NAME (see 'probe workloads list'), --sql FILE or --proc NAME, or --attach"),
            > 1 => throw new BadInputException("give only one of --workload, --sql and --proc"),
            _ => name is not null ? SqlServerWorkloadCatalog.Find(name, scale)
                : sql is not null ? CustomWorkload.FromSqlFile(sql.FullName)
                : CustomWorkload.FromProcedure(proc!),
        };
    }

    private static string? ReadPassword(string? user, string? passwordEnv, bool dryRun, Func<string, string>? prompt)
    {
        if (passwordEnv is not null)
        {
            return Environment.GetEnvironmentVariable(passwordEnv)
                ?? throw new BadInputException($"--password-env: the environment variable {passwordEnv} is not set");
        }

        if (user is null || dryRun)
        {
            return null;
        }

        if (prompt is null || Console.IsInputRedirected)
        {
            throw new BadInputException($"--user {user} needs a password: set an environment variable and name it with --password-env (passwords are never taken from the command line)");
        }

        return prompt($"Password for {user}: ");
    }

    private static IReadOnlyList<XeStream> ReadXe(string[] values)
    {
        var streams = new List<XeStream>();
        foreach (var value in values.SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)))
        {
            var stream = value.ToLowerInvariant() switch
            {
                "pages" => XeStream.Pages,
                "latches" => XeStream.Latches,
                _ => throw new BadInputException($"--xe '{value}' is not known; use pages, latches or both"),
            };
            if (!streams.Contains(stream))
            {
                streams.Add(stream);
            }
        }

        return streams;
    }

    private static IReadOnlyList<int> ReadSessionIds(string? text)
    {
        if (text is null)
        {
            return [];
        }

        var ids = new List<int>();
        foreach (var part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var id) || id is < 1 or > short.MaxValue)
            {
                throw new BadInputException($"--session-ids: '{part}' is not a session id (1 to 32767)");
            }

            ids.Add(id);
        }

        return ids;
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
            options[option.Name] = SqlServerConnectionFactory.Redact(value);
        }

        return options;
    }
}
