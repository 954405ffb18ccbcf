using System.Globalization;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Postgres.Attach;
using SqlWaitProbe.Postgres.Workloads;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary>The PostgreSQL-specific choices of one capture, validated from the command line's arguments.</summary>
public sealed record PostgresSettings
{
    /// <summary>The workload to run; null in attach mode.</summary>
    public WorkloadDefinition? Workload { get; init; }

    /// <summary>Attach mode: the backends to watch; null when the probe runs a workload.</summary>
    public PostgresSessionFilter? Attach { get; init; }

    /// <summary>Attach mode: plain EXPLAIN of the watched sessions' top statements after the window (<c>--explain</c>).</summary>
    public bool Explain { get; init; }

    /// <summary>Connection string of an existing server, or null for an embedded one.</summary>
    public string? Server { get; init; }

    /// <summary>Reads and validates the PostgreSQL options; throws <see cref="BadInputException"/> (exit 2).</summary>
    public static PostgresSettings FromOptions(OptionValues options)
    {
        if (options.Get(CommonOptions.Attach))
        {
            return ForAttach(options);
        }

        if (options.Get(Statements.PgExplainModule.Explain))
        {
            throw new BadInputException("--explain applies to --attach: a workload run already writes its statement's EXPLAIN ANALYZE after each phase");
        }

        if (new IOptionSpec[] { CommonOptions.Application, CommonOptions.Login, CommonOptions.SessionIds }.Any(options.IsGiven))
        {
            throw new BadInputException("--application, --login and --session-ids filter attach mode; a workload run watches its own sessions");
        }

        var workload = ReadWorkload(options.Get(CommonOptions.Workload), options.Get(CommonOptions.SqlFile)?.FullName, options.Get(CommonOptions.Scale) ?? PostgresWorkloadCatalog.DefaultScale);
        return new PostgresSettings
        {
            Workload = workload,
            Server = PostgresConnectionStrings.FromOptions(options.Get(CommonOptions.Server), options.Get(CommonOptions.PasswordEnv), options.Get(CommonOptions.Database), options.Get(CommonOptions.User)),
        };
    }

    private static PostgresSettings ForAttach(OptionValues options)
    {
        var serverOption = options.Get(CommonOptions.Server);
        if (serverOption is null)
        {
            throw new BadInputException("--attach needs --server: there is no embedded server to attach to (give e.g. --server 'Host=db1;Username=me;Database=app')");
        }

        foreach (var option in new IOptionSpec[] { CommonOptions.Workload, CommonOptions.SqlFile, CommonOptions.Threads, CommonOptions.Iterations, CommonOptions.NoBaseline, CommonOptions.Scale }.Where(options.IsGiven))
        {
            throw new BadInputException($"{option.Name} does not apply to --attach: attach mode runs no workload, it watches the server's own sessions");
        }

        var filter = new PostgresSessionFilter
        {
            Database = options.Get(CommonOptions.Database),
            Application = options.Get(CommonOptions.Application),
            Login = options.Get(CommonOptions.Login),
            Pids = ReadPids(options.Get(CommonOptions.SessionIds)),
        };

        // Every probe connection is named, so the backend search leaves them out. --database filters the sessions:
        // pg_stat_activity is the whole cluster's, so the monitoring connection keeps its own database (and needs no CONNECT on the filtered one).
        var server = PostgresConnectionStrings.FromOptions(serverOption, options.Get(CommonOptions.PasswordEnv), null, options.Get(CommonOptions.User))!;
        return new PostgresSettings { Attach = filter, Server = PostgresConnectionStrings.ForProbeMonitor(server), Explain = options.Get(Statements.PgExplainModule.Explain) };
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

    private static WorkloadDefinition ReadWorkload(string? name, string? sqlFile, double scale)
    {
        if (name is not null && sqlFile is not null)
        {
            throw new BadInputException("give --workload or --sql, not both");
        }

        if (sqlFile is not null)
        {
            var sql = Core.Files.SqlScriptFile.Read(sqlFile);
            return new WorkloadDefinition
            {
                Name = "custom",
                Engine = "postgres",
                Summary = $"The SQL of {Path.GetFileName(sqlFile)}.",
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
}
