using System.Globalization;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Workloads;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>The options of <c>probe capture</c> only SQL Server takes, declared once, and the reading of them all.</summary>
public static class SqlServerOptions
{
    /// <summary><c>--proc</c>: a stored procedure to call as the workload (SQL Server).</summary>
    public static readonly OptionSpec<string?> Proc = new("--proc")
    {
        Help = "Call this stored procedure as the workload (sqlserver).",
        HelpOrder = 50,
    };

    /// <summary><c>--encrypt</c>.</summary>
    public static readonly OptionSpec<bool> Encrypt = new("--encrypt")
    {
        Help = "Require an encrypted connection (sqlserver). Without it encryption is optional, unless the connection string sets Encrypt.",
        HelpOrder = 210,
    };

    /// <summary><c>--trust-server-certificate</c>.</summary>
    public static readonly OptionSpec<bool> TrustServerCertificate = new("--trust-server-certificate")
    {
        Help = "Trust the server's certificate without validation (sqlserver; test servers only).",
        HelpOrder = 220,
    };

    /// <summary><c>--xe</c>: pages and/or latches.</summary>
    public static readonly OptionSpec<string[]> Xe = new("--xe")
    {
        Help = "Extended-event streams to capture (sqlserver): pages, latches. Debug-channel events: costly, filtered to the workload.",
        HelpOrder = 230,
        AllowMultipleArgumentsPerToken = true,
        Completions = () => ["pages", "latches"],
    };

    /// <summary><c>--snapshot-interval</c>.</summary>
    public static readonly OptionSpec<string> SnapshotInterval = new("--snapshot-interval")
    {
        Help = "How often DMVs are snapshotted (sqlserver), e.g. 1s.",
        HelpOrder = 240,
        Default = () => "1s",
    };

    /// <summary><c>--reset-server-state</c>.</summary>
    public static readonly OptionSpec<bool> ResetServerState = new("--reset-server-state")
    {
        Help = "Before a workload run, clear wait/latch/spinlock stats and drop clean buffers (asks first unless --yes; never in attach mode).",
        HelpOrder = 280,
    };

    /// <summary><c>--max-xe-mb</c>: cap on XE files.</summary>
    public static readonly OptionSpec<int> MaxXeMegabytes = new("--max-xe-mb")
    {
        Help = "Largest XE event_file size in MB (sqlserver).",
        HelpOrder = 330,
        Default = () => 512,
        Check = mb => mb < 4 ? "--max-xe-mb must be at least 4" : null,
    };

    /// <summary>The options above, for the engine's registration.</summary>
    public static IReadOnlyList<IOptionSpec> All { get; } = [Proc, Encrypt, TrustServerCertificate, Xe, SnapshotInterval, ResetServerState, MaxXeMegabytes];

    /// <summary>
    /// The connection and capture settings from <paramref name="options"/>; throws <see cref="BadInputException"/>
    /// (exit 2). <paramref name="readPassword"/> asks for a password on a terminal (null when there is none); it is
    /// not called in a dry run.
    /// </summary>
    public static (SqlServerConnectionSettings Connection, SqlServerSettings Capture) Read(OptionValues options, Func<string, string>? readPassword, RunScope? scope = null)
    {
        scope ??= RunScope.NewCapture();
        var attach = options.Get(CommonOptions.Attach);
        var server = options.Get(CommonOptions.Server)
            ?? throw new BadInputException("--engine sqlserver needs --server (a server name such as localhost or host,1433, or a SqlClient connection string)");
        var runId = scope.RunId;
        var workload = ReadWorkload(options, attach, options.Get(CommonOptions.Scale) ?? 1.0);
        if (attach && options.Get(ResetServerState))
        {
            throw new BadInputException("--reset-server-state clears statistics for the whole server and is refused in attach mode; it exists only for workload reproduction runs");
        }

        var maxXeMegabytes = options.Get(MaxXeMegabytes);
        var user = options.Get(CommonOptions.User);
        var database = options.Get(CommonOptions.Database);
        var password = ReadPassword(user, options.Get(CommonOptions.PasswordEnv), options.Get(CommonOptions.DryRun), readPassword);
        var connection = new SqlServerConnectionSettings
        {
            Server = server,
            User = user,
            Password = password,
            Encrypt = options.Get(Encrypt),
            TrustServerCertificate = options.Get(TrustServerCertificate),
            Database = attach ? null : database,
            RunId = runId,
        };
        var settings = new SqlServerSettings
        {
            RunId = runId,
            Scope = scope,
            Workload = workload,
            XeStreams = ReadXe(options.Get(Xe) ?? []),
            SnapshotInterval = DurationParser.Parse(options.Get(SnapshotInterval), "--snapshot-interval"),
            ResetServerState = options.Get(ResetServerState),
            MaxXeMegabytes = maxXeMegabytes,
            SampleWorkerThreads = CpuOptions.OffCpuOn(options),
            FilterDatabase = attach ? database : null,
            FilterApplication = options.Get(CommonOptions.Application),
            FilterLogin = options.Get(CommonOptions.Login),
            FilterSessionIds = ReadSessionIds(options.Get(CommonOptions.SessionIds)),
        };
        if (!attach && ((settings.FilterApplication ?? settings.FilterLogin) is not null || settings.FilterSessionIds.Count > 0))
        {
            throw new BadInputException("--application, --login and --session-ids filter attach mode; a workload run watches its own sessions");
        }

        return (connection, settings);
    }

    private static WorkloadDefinition? ReadWorkload(OptionValues options, bool attach, double scale)
    {
        var name = options.Get(CommonOptions.Workload);
        var sql = options.Get(CommonOptions.SqlFile)?.FullName;
        var proc = options.Get(Proc);
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
                : sql is not null ? CustomWorkload.FromSqlFile(sql)
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

        if (prompt is null)
        {
            throw new BadInputException($"--user {user} needs a password: set an environment variable and name it with --password-env (passwords are never taken from the command line)");
        }

        return prompt($"Password for {user}: ");
    }

    private static IReadOnlyList<XeStream> ReadXe(IReadOnlyList<string> values)
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
}
