using Microsoft.SqlServer.TransactSql.ScriptDom;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.SqlServer.ServerSettings;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Statements;
using SqlWaitProbe.SqlServer.Workloads;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Catalog.Tests;

/// <summary>
/// Every statement the SQL Server engine can send, gathered from the generators themselves (the dry-run recorder,
/// which runs the capture's own code against recording sinks, and the statement builders of check and cleanup) for
/// a server of a given major version. To bind a new statement, add one line to <see cref="Sources"/>.
/// </summary>
public static class ProbeStatements
{
    /// <summary>The user's own procedure that <c>--proc</c> calls; it stands in for the user's object and enters the model first.</summary>
    public const string UserProcedure = "dbo.probe_catalog_user_proc";

    private const string RunId = "0a1b2c3d4e";

    private static readonly IReadOnlyList<(string Name, int Threads)> Sweep = [("baseline", 1), ("load-8", 8), ("load-96", 96)];

    /// <summary>
    /// The generators, one line each: a name and the statements it produces for a major version. Dry runs cover the
    /// capture's setup, per-session, execution, DMV, XE and cleanup statements; the rest are sent outside a capture.
    /// </summary>
    private static IEnumerable<(string Name, Func<int, Task<IReadOnlyList<SqlStatement>>> Statements)> Sources()
    {
        var options = new[] { new Args(), new Args { Xe = ["pages,latches"], ResetServerState = true } };
        foreach (var workload in SqlServerWorkloadCatalog.Create(0.01).Select(w => w.Name))
        {
            foreach (var o in options)
            {
                yield return ($"{workload}{Describe(o)}", major => Record(o with { Workload = workload, Scale = 0.01 }, major));
            }
        }

        var sample = Path.Combine(TestSupport.TestData.RepoRoot, "samples", "workloads", "sqlserver-hashbytes-sha512.sql");
        yield return ("--sql sqlserver-hashbytes-sha512.sql --xe pages,latches", major => Record(new Args { SqlFile = sample, Xe = ["pages,latches"] }, major));
        yield return ($"--proc {UserProcedure} --xe pages,latches", major => Record(new Args { Proc = UserProcedure, Xe = ["pages,latches"] }, major));
        foreach (var filter in AttachFilters())
        {
            yield return ($"--attach{Describe(filter)}", major => Record(filter with { Attach = true, Xe = ["pages,latches"] }, major));
        }

        yield return ("--offcpu on: worker thread of each session", _ => Task.FromResult<IReadOnlyList<SqlStatement>>(
            [new SqlStatement("worker threads of 2 sessions", WorkerThreadSampler.Query([51, 52]))]));
        yield return ("statement texts and plans", major => Task.FromResult(StatementReads(major)));
        yield return ("probe watch: the triggers' poll", _ => Task.FromResult<IReadOnlyList<SqlStatement>>(
            [.. AttachFilters().Select(f => new SqlStatement("watch poll" + Describe(f), Watch.SqlServerWatchMonitor.Query(new SessionFilter { SessionIds = f.SessionIds is null ? [] : [.. f.SessionIds.Split(',').Select(i => int.Parse(i, System.Globalization.CultureInfo.InvariantCulture))], Database = f.Database, Application = f.Application, Login = f.Login })))]));
        yield return ("probe check", major => Task.FromResult(SqlServerServerCheck.StatementsFor(major)));
        yield return ("probe cleanup --server", _ => Task.FromResult<IReadOnlyList<SqlStatement>>(
            [XeLeftoverCleaner.FindStatement(null), XeLeftoverCleaner.FindStatement(RunId), XeLeftoverCleaner.RemoveStatement($"probe_{RunId}_pages"), XeLeftoverCleaner.LocateStatement()]));
        yield return ("known session ids (8 and 200 sessions)", _ => Task.FromResult(KnownSessions()));
        yield return ("probe experiment settings", major => Task.FromResult(ExperimentSettings(major)));
        foreach (var file in ExperimentSamples())
        {
            yield return ($"experiment sample {Path.GetFileName(file)}", major => Task.FromResult(SampleStatements(file, major)));
        }

        yield return ("XE files read through the server", _ => Task.FromResult<IReadOnlyList<SqlStatement>>(
            [Builder(new SessionFilter { SessionIds = [51] }).ReadEventFiles(@"D:\MSSQL\Log\probe_0a1b2c3d4e_load_pages*.xel"),
             Builder(new SessionFilter { SessionIds = [51] }).CountEventFiles(@"D:\MSSQL\Log\probe_0a1b2c3d4e_load_pages*.xel")]));
    }

    /// <summary>Every binding case for a server of <paramref name="major"/>: the probe's own objects first, then the bodies.</summary>
    public static async Task<IReadOnlyList<BindingCase>> ForAsync(int major)
    {
        var objects = new Dictionary<string, BindingCase>(StringComparer.OrdinalIgnoreCase)
        {
            [UserProcedure] = new BindingCase("the user's procedure named by --proc", $"CREATE PROCEDURE {UserProcedure} AS SELECT 1 AS done;", IsObject: true),
        };
        var bodies = new List<BindingCase>();
        var seen = new Dictionary<string, int>(StringComparer.Ordinal);

        // A batch several generators send is bound once, under all their names.
        void Bind(string source, string sql)
        {
            if (seen.TryGetValue(sql, out var i))
            {
                if (!bodies[i].Source.Split(" | ").Contains(source, StringComparer.Ordinal))
                {
                    bodies[i] = bodies[i] with { Source = bodies[i].Source + " | " + source };
                }

                return;
            }

            seen[sql] = bodies.Count;
            bodies.Add(new BindingCase(source, sql));
        }

        foreach (var (name, generate) in Sources())
        {
            var statements = (await generate(major)).Where(s => s.Purpose != "note").ToList();
            if (statements.Count == 0)
            {
                throw new InvalidOperationException($"{name} generated no statement");
            }

            foreach (var (source, sql) in Batches(name, statements))
            {
                foreach (var created in CreatedObjects(sql))
                {
                    objects.TryAdd(created.Name, new BindingCase($"{source} creates {created.Name}", created.Sql, IsObject: true));
                }

                foreach (var dynamic in DynamicSql(sql).Where(d => CreatedObjects(d).Count == 0))
                {
                    Bind(source + " (its dynamic SQL)", dynamic);
                }

                Bind(source, sql);
            }
        }

        return [.. objects.Values, .. bodies];
    }

    /// <summary>
    /// The batches to bind: each statement alone, except that a workload session's statements are bound together in
    /// the order the session sends them, so the temporary tables its session setup creates are there for its query.
    /// </summary>
    private static IEnumerable<(string Source, string Sql)> Batches(string name, IReadOnlyList<SqlStatement> statements)
    {
        var session = statements.Where(s => s.Purpose.StartsWith("[session 1]", StringComparison.Ordinal)).ToList();
        if (session.Count > 0)
        {
            yield return ($"{name}: [session 1] {string.Join(", then ", session.Select(s => s.Purpose[12..]).Distinct())}",
                string.Join("\n", session.Select(s => s.Text.Trim()).Distinct(StringComparer.Ordinal)));
        }

        foreach (var s in statements.Where(s => !s.Purpose.StartsWith("[session 1]", StringComparison.Ordinal)))
        {
            yield return ($"{name}: {s.Purpose}", s.Text);
        }
    }

    private static async Task<IReadOnlyList<SqlStatement>> Record(Args arguments, int major)
    {
        var (connection, settings) = SqlServerOptions.Read(arguments.ToOptions(), null);
        // One run id for every recording, so statements that differ only by it are bound once.
        return await DryRunRecorder.RecordAsync(settings with { RunId = RunId }, connection with { RunId = RunId },
            settings.Attach ? [("attach", 0)] : Sweep, "10 s", CancellationToken.None, major);
    }

    private static IEnumerable<Args> AttachFilters()
    {
        yield return new Args();
        yield return new Args { Database = "Sales" };
        yield return new Args { Application = "Order Entry" };
        yield return new Args { Login = @"CONTOSO\o'brien" };
        yield return new Args { SessionIds = "51,52,77" };
        yield return new Args { Database = "Sales", Application = "Order Entry", Login = "app_user", SessionIds = "51" };
    }

    private static string Describe(Args a) =>
        (a.Xe.Count > 0 ? " --xe " + string.Join(",", a.Xe) : "") + (a.ResetServerState ? " --reset-server-state" : "")
        + (a.Database is null ? "" : " --database " + a.Database) + (a.Application is null ? "" : " --application " + a.Application)
        + (a.Login is null ? "" : " --login " + a.Login) + (a.SessionIds is null ? "" : " --session-ids " + a.SessionIds);

    /// <summary>The session-scoped statements once the workload connections' ids are known (a list, and a range past the predicate limit).</summary>
    private static IReadOnlyList<SqlStatement> KnownSessions()
    {
        var statements = new List<SqlStatement>();
        foreach (var count in new[] { 8, 200 })
        {
            var filter = new SessionFilter { SessionIds = [.. Enumerable.Range(51, count)] };
            statements.AddRange(DmvQueries.All(filter).Take(2).Select(d => new SqlStatement($"snapshot {d.Name} of {count} sessions", d.Query)));
        }

        return statements;
    }

    /// <summary>
    /// What the statement collector sends outside the dry run's reach: the texts of sampled statements by their handles
    /// (read only when a poll found a request), and after the phase each top statement's cached plan and, from 2019, its
    /// last actual plan. The handles are of the shape the server returns.
    /// </summary>
    private static IReadOnlyList<SqlStatement> StatementReads(int major)
    {
        const string sqlHandle = "0x020000004D2F5A1C7B3E8F10A1B2C3D4E5F60718293A4B5C0000000000000000000000000000000000";
        const string planHandle = "0x060005004D2F5A1CA0B1C2D3E4F5061728394A5B6C7D8E9F000000000000000000000000000000000000";
        var statements = new List<SqlStatement>
        {
            StatementQueries.Texts([(sqlHandle, 0, -1), (sqlHandle, 118, 402)]),
            StatementQueries.EstimatedPlan(planHandle, 118, 402),
            // Attach mode with no --database: every statement that ran, on the version's release build.
            StatementQueries.QueryStatsAtEnd(major, ServerInfo.DryRunAssumptionFor(major).ProductVersion, 30, null),
        };
        if (StatementQueries.HasLastActualPlan(major))
        {
            statements.Add(StatementQueries.LastActualPlan(major, planHandle));
        }

        return statements;
    }

    /// <summary>
    /// What <c>probe experiment</c> sends for each kind of setting: the read before, the apply, the restore to the value
    /// read before, for every family the catalog knows (startup-only ones are only read).
    /// </summary>
    private static IReadOnlyList<SqlStatement> ExperimentSettings(int major)
    {
        var catalog = SqlServerSettingCatalog.Instance;
        // A value read before each change, as a server fresh from setup holds it.
        (string Name, string Value, string Before)[] asked =
        [
            ("sp_configure.max degree of parallelism", "1", "0"), ("sp_configure.cost threshold for parallelism", "50", "5"), ("sp_configure.show advanced options", "1", "0"),
            ("database_scoped.MAXDOP", "1", "0"), ("database_scoped.LEGACY_CARDINALITY_ESTIMATION", "ON", "0"),
            ("workload_group.default.MAX_DOP", "1", "0"), ("workload_group.default.REQUEST_MAX_MEMORY_GRANT_PERCENT", "10", "25"),
            ("resource_pool.default.MAX_CPU_PERCENT", "50", "100"), ("resource_pool.default.MIN_CPU_PERCENT", "10", "0"), ("resource_pool.default.AFFINITY", "0 TO 1", "AUTO"),
            ("resource_governor", "on", "off"), ("resource_governor", "off", "on"), ("trace_flag.3933", "on", "off"), ("trace_flag.3933", "off", "on"),
            ("trace_flag.834", "on", "on"), ("memory_model", "LOCK_PAGES", "LOCK_PAGES"),
        ];
        var statements = new List<SqlStatement> { new("experiment: read the server's identity", SqlServerSettingServer.IdentityQuery) };
        // The memory model column came with 2016 SP1; the 2016 catalog here is the release's, and the experiment records the model as not read there.
        foreach (var (name, value, before) in asked.Where(a => a.Name != "memory_model" || major > 13))
        {
            var setting = catalog.Find(name) ?? throw new InvalidOperationException($"the experiment catalog has no {name}");
            statements.AddRange(catalog.ReadStatements(setting).Select(s => new SqlStatement($"experiment: read {setting.Name}", s)));
            statements.AddRange(catalog.ApplyStatements(setting, value).Select(s => new SqlStatement($"experiment: apply {setting.Name} = {value}", s)));
            statements.AddRange(catalog.RestoreStatements(setting, new SettingSnapshot(before, before)).Select(s => new SqlStatement($"experiment: restore {setting.Name}", s)));
        }

        return statements;
    }

    /// <summary>The SQL Server experiment files in samples/experiments.</summary>
    public static IReadOnlyList<string> ExperimentSamples() =>
        [.. Directory.EnumerateFiles(Path.Combine(TestSupport.TestData.RepoRoot, "samples", "experiments"), "sqlserver-*.yaml").Order(StringComparer.Ordinal)];

    /// <summary>
    /// What an experiment sample sends besides its built-in workload (bound above): its setup and teardown batches as
    /// split on GO, each variant's before and after batches and background query, its own workload query, and the read,
    /// apply and restore of every setting its variants change.
    /// </summary>
    private static IReadOnlyList<SqlStatement> SampleStatements(string file, int major)
    {
        var experiment = SqlWaitProbe.Experiments.Files.ExperimentFileReader.Read(file, new Dictionary<string, IExperimentEngine> { ["sqlserver"] = new SqlServerExperimentEngine() });
        var catalog = SqlServerSettingCatalog.Instance;
        var statements = new List<SqlStatement>();
        void Script(string purpose, SqlWaitProbe.Experiments.ExperimentScript? script)
        {
            if (script is not null)
            {
                var batches = catalog.Split(script.Text);
                statements.AddRange(batches.Select((b, i) => new SqlStatement($"{purpose} batch {i + 1}/{batches.Count}", b.Text)));
            }
        }

        Script("setup", experiment.Setup);
        if (experiment.Workload.Sql is { } sql)
        {
            statements.Add(new SqlStatement("workload query", sql.Text));
        }

        foreach (var variant in experiment.Variants)
        {
            // Recorded for every variant; the memory model column came with 2016 SP1 (recorded as not read before it).
            foreach (var name in catalog.AlwaysRecorded.Where(n => n != "memory_model" || major > 13))
            {
                statements.AddRange(catalog.ReadStatements(catalog.Find(name)!).Select(s => new SqlStatement($"variant {variant.Name} record {name}", s)));
            }

            Script($"variant {variant.Name} before", variant.Before);
            Script($"variant {variant.Name} after", variant.After);
            if (variant.Background is { } background)
            {
                statements.Add(new SqlStatement($"variant {variant.Name} background", background.Sql.Text));
            }

            foreach (var request in variant.Settings)
            {
                var setting = catalog.Find(request.Name) ?? throw new InvalidOperationException($"{file}: the catalog has no {request.Name}");
                statements.AddRange(catalog.ReadStatements(setting).Select(s => new SqlStatement($"variant {variant.Name} read {setting.Name}", s)));
                if (setting.Level != SettingLevel.Startup)
                {
                    statements.AddRange(catalog.ApplyStatements(setting, request.Value).Select(s => new SqlStatement($"variant {variant.Name} apply {setting.Name}", s)));
                    statements.AddRange(catalog.RestoreStatements(setting, new SettingSnapshot("0", "0")).Select(s => new SqlStatement($"variant {variant.Name} restore {setting.Name}", s)));
                }
            }
        }

        Script("teardown", experiment.Teardown);
        return statements;
    }

    private static XeSessionBuilder Builder(SessionFilter filter) => new(new XeSessionOptions { RunId = RunId, Filter = filter });

    /// <summary>The tables, sequences and event sessions a batch creates, directly or in literal dynamic SQL, as standalone CREATE statements.</summary>
    private static IReadOnlyList<(string Name, string Sql)> CreatedObjects(string sql)
    {
        var created = new List<(string, string)>();
        foreach (var text in DynamicSql(sql).Prepend(sql))
        {
            var fragment = Parse(text);
            foreach (var statement in All<TSqlStatement>(fragment).Where(s => s is CreateTableStatement or CreateSequenceStatement or CreateEventSessionStatement))
            {
                var name = statement switch
                {
                    CreateTableStatement t => string.Join(".", t.SchemaObjectName.Identifiers.Select(i => i.Value)),
                    CreateSequenceStatement q => string.Join(".", q.Name.Identifiers.Select(i => i.Value)),
                    _ => "event session " + ((CreateEventSessionStatement)statement).Name.Value,
                };
                if (!name.StartsWith('#'))
                {
                    created.Add((name, text.Substring(statement.StartOffset, statement.FragmentLength)));
                }
            }
        }

        return created;
    }

    /// <summary>The literal batches passed to sys.sp_executesql.</summary>
    private static IReadOnlyList<string> DynamicSql(string sql) =>
        [.. All<ExecutableProcedureReference>(Parse(sql))
            .Where(p => string.Equals(p.ProcedureReference?.ProcedureReference?.Name?.BaseIdentifier?.Value, "sp_executesql", StringComparison.OrdinalIgnoreCase))
            .Select(p => p.Parameters.FirstOrDefault()?.ParameterValue)
            .OfType<StringLiteral>()
            .Select(l => l.Value)];

    private static TSqlFragment Parse(string sql)
    {
        var fragment = new TSql170Parser(initialQuotedIdentifiers: true).Parse(new StringReader(sql), out var errors);
        return errors.Count == 0 ? fragment : throw new InvalidOperationException($"does not parse ({errors[0].Message}): {sql}");
    }

    private static List<T> All<T>(TSqlFragment fragment)
        where T : TSqlFragment
    {
        var visitor = new Collector<T>();
        fragment.Accept(visitor);
        return visitor.Found;
    }

    private sealed class Collector<T> : TSqlFragmentVisitor
        where T : TSqlFragment
    {
        public List<T> Found { get; } = [];

        public override void Visit(TSqlFragment node)
        {
            if (node is T t)
            {
                Found.Add(t);
            }
        }
    }

    /// <summary>The options of one recorded capture, as a user would type them.</summary>
    private sealed record Args
    {
        public string? Workload { get; init; }

        public double? Scale { get; init; }

        public string? SqlFile { get; init; }

        public string? Proc { get; init; }

        public IReadOnlyList<string> Xe { get; init; } = [];

        public bool ResetServerState { get; init; }

        public bool Attach { get; init; }

        public string? Database { get; init; }

        public string? Application { get; init; }

        public string? Login { get; init; }

        public string? SessionIds { get; init; }

        public OptionValues ToOptions() => OptionValues.Of(
            (CommonOptions.Server, "localhost"), (CommonOptions.DryRun, true), (CommonOptions.Workload, Workload), (CommonOptions.Scale, Scale),
            (CommonOptions.SqlFile, SqlFile is null ? null : new FileInfo(SqlFile)), (SqlServerOptions.Proc, Proc), (SqlServerOptions.Xe, Xe.ToArray()),
            (SqlServerOptions.ResetServerState, ResetServerState), (CommonOptions.Attach, Attach), (CommonOptions.Database, Database),
            (CommonOptions.Application, Application), (CommonOptions.Login, Login), (CommonOptions.SessionIds, SessionIds));
    }
}
