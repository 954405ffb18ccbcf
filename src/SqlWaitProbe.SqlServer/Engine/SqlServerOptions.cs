using System.Globalization;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Workloads;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>Reads and validates the SQL Server options of <c>probe capture</c>.</summary>
public static class SqlServerOptions
{
    /// <summary>
    /// The connection and capture settings from <paramref name="arguments"/>; throws <see cref="BadInputException"/>
    /// (exit 2). <paramref name="readPassword"/> asks for a password on a terminal (null when there is none); it is
    /// not called in a dry run.
    /// </summary>
    public static (SqlServerConnectionSettings Connection, SqlServerSettings Capture) Read(CaptureArguments arguments, Func<string, string>? readPassword)
    {
        var attach = arguments.Attach;
        var server = arguments.Server
            ?? throw new BadInputException("--engine sqlserver needs --server (a server name such as localhost or host,1433, or a SqlClient connection string)");
        var runId = Guid.NewGuid().ToString("N")[..10];
        var workload = ReadWorkload(arguments, attach, arguments.Scale ?? 1.0);
        if (attach && arguments.ResetServerState)
        {
            throw new BadInputException("--reset-server-state clears statistics for the whole server and is refused in attach mode; it exists only for workload reproduction runs");
        }

        if (arguments.MaxXeMegabytes < 4)
        {
            throw new BadInputException("--max-xe-mb must be at least 4");
        }

        var password = ReadPassword(arguments.User, arguments.PasswordEnv, arguments.DryRun, readPassword);
        var connection = new SqlServerConnectionSettings
        {
            Server = server,
            User = arguments.User,
            Password = password,
            Encrypt = arguments.Encrypt,
            TrustServerCertificate = arguments.TrustServerCertificate,
            Database = attach ? null : arguments.Database,
            RunId = runId,
        };
        var settings = new SqlServerSettings
        {
            RunId = runId,
            Workload = workload,
            XeStreams = ReadXe(arguments.Xe),
            SnapshotInterval = DurationParser.Parse(arguments.SnapshotInterval, "--snapshot-interval"),
            ResetServerState = arguments.ResetServerState,
            MaxXeMegabytes = arguments.MaxXeMegabytes,
            SampleWorkerThreads = string.Equals(arguments.OffCpu?.Trim(), "on", StringComparison.OrdinalIgnoreCase),
            FilterDatabase = attach ? arguments.Database : null,
            FilterApplication = arguments.Application,
            FilterLogin = arguments.Login,
            FilterSessionIds = ReadSessionIds(arguments.SessionIds),
        };
        if (!attach && ((settings.FilterApplication ?? settings.FilterLogin) is not null || settings.FilterSessionIds.Count > 0))
        {
            throw new BadInputException("--application, --login and --session-ids filter attach mode; a workload run watches its own sessions");
        }

        return (connection, settings);
    }

    private static WorkloadDefinition? ReadWorkload(CaptureArguments arguments, bool attach, double scale)
    {
        var name = arguments.Workload;
        var sql = arguments.SqlFile;
        var proc = arguments.Proc;
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
