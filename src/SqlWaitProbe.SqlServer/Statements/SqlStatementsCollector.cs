using System.Globalization;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Statements;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Statements;

/// <summary>
/// Which statement the time went to, on SQL Server, into the same files the PostgreSQL side writes: the watched
/// sessions' requests polled every 100 ms with their memory grants and the sessions they wait behind
/// (<c>activity.csv</c>, <c>statements/texts.csv</c>), the plan cache's per-statement counters read at the phase's
/// start and end (<c>statements/statements.csv</c>, by <c>query_hash</c>), and after the phase the plans of the
/// statements that took most time (<c>statements/plans/*.sqlplan</c>). Read-only.
/// </summary>
public sealed class SqlStatementsCollector : ICollector, IAfterPhase
{
    /// <summary>Poll interval of the requests: a statement shorter than this may go unsampled (its counters still count).</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromMilliseconds(100);

    /// <summary>Statements whose plan is saved after the phase: the most elapsed time, then the most sampled time.</summary>
    public const int MaxPlans = 5;

    private readonly Func<string, CancellationToken, Task<ISqlCommandSink>> _open;
    private readonly Func<PhaseContext, SessionFilter> _filterFor;
    private readonly int _major;
    private readonly string _productVersion;
    private readonly string? _database;
    private readonly TimeSpan _interval;
    private readonly Func<DateTime> _clock;
    private ISqlCommandSink? _sink;
    private PollingLoop? _loop;
    private SqlStatement? _poll;
    private Dictionary<(string, int, int, string), QueryStatsRow> _start = [];
    private DateTime _startedUtc;
    private readonly List<DateTime> _polls = [];
    private readonly List<RequestSample> _samples = [];
    private readonly Dictionary<string, (string PlanHandle, int Start, int End)> _planOf = new(StringComparer.Ordinal);
    private List<string> _planOrder = [];

    /// <summary>Creates the collector.</summary>
    /// <param name="open">Opens the collector's own sink (a connection, or a recorder in a dry run).</param>
    /// <param name="filterFor">The phase's watched sessions.</param>
    /// <param name="major">The server's major version (13 = 2016 … 17 = 2025): the statements are generated for it.</param>
    /// <param name="productVersion">e.g. <c>13.0.5026.0</c>: 2016 from SP2 has the spill columns.</param>
    /// <param name="database">Workload runs: the workload's database, whose statements alone are counted; null in attach mode.</param>
    /// <param name="interval">Poll interval of the requests.</param>
    /// <param name="clock">When a poll runs (UTC); the system clock unless a test scripts the polls' times.</param>
    public SqlStatementsCollector(Func<string, CancellationToken, Task<ISqlCommandSink>> open, Func<PhaseContext, SessionFilter> filterFor, int major, string productVersion,
        string? database, TimeSpan? interval = null, Func<DateTime>? clock = null)
    {
        _clock = clock ?? (() => DateTime.UtcNow);
        _open = open ?? throw new ArgumentNullException(nameof(open));
        _filterFor = filterFor ?? throw new ArgumentNullException(nameof(filterFor));
        _major = major;
        _productVersion = productVersion ?? "";
        _database = database;
        _interval = interval ?? DefaultInterval;
    }

    /// <inheritdoc />
    public string Name => "sql-statements";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        _sink ??= await _open("statements", cancellationToken);
        _startedUtc = DateTime.UtcNow;
        var start = await _sink.QueryAsync(StatementQueries.QueryStatsAtStart(_major, _productVersion), cancellationToken);
        _start = [];
        foreach (var row in StatsRows(start))
        {
            _start.TryAdd(row.Identity, row);
        }

        _poll = StatementQueries.Requests(_filterFor(phase), _major);
        await PollAsync(cancellationToken);
        if (_sink is RecordingSqlSink recorder)
        {
            recorder.Note($"the request poll above repeats every {_interval.TotalMilliseconds:0} ms until the phase ends; at the end the counters are read again with the texts of the statements that ran, and the sampled statements' texts are read by their handles");
            return;
        }

        _loop = PollingLoop.Start("request poll", _interval, PollAsync, LostPolls.OnServerError("request poll"), cancellationToken);
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        int failed = 0;
        string? error = null;
        if (_loop is not null)
        {
            await _loop.StopAsync();
            (failed, error) = (_loop.Failed, _loop.Error);
            _loop = null;
        }

        if (_sink is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "never started");
        }

        try
        {
            // The phase and a margin: last_execution_time is the server's local time, rounded.
            var seconds = (int)Math.Ceiling((DateTime.UtcNow - _startedUtc).TotalSeconds) + 5;
            var end = await _sink.QueryAsync(StatementQueries.QueryStatsAtEnd(_major, _productVersion, seconds, _database), CancellationToken.None);
            var texts = await TextsAsync(_sink, CancellationToken.None);
            if (_sink.IsDryRun)
            {
                return new CollectorOutcome(Name, CollectorStatus.Skipped, 0, "dry run");
            }

            Write(phase, StatsRows(end).ToList(), texts);
        }
        catch (Exception e) when (e is Microsoft.Data.SqlClient.SqlException or IOException or InvalidOperationException)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, failed, e.Message);
        }
        finally
        {
            if (_sink is IAsyncDisposable disposable)
            {
                await disposable.DisposeAsync();
            }

            _sink = null;
        }

        return error is null ? new CollectorOutcome(Name, CollectorStatus.Ok) : new CollectorOutcome(Name, CollectorStatus.Partial, failed, error);
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome?> AfterPhaseAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        if (_planOrder.Count == 0)
        {
            return null;
        }

        var sink = await _open("statement plans", cancellationToken);
        try
        {
            foreach (var key in _planOrder)
            {
                var (handle, start, end) = _planOf[key];
                try
                {
                    string? plan = null;
                    if (StatementQueries.HasLastActualPlan(_major))
                    {
                        var actual = await sink.QueryAsync(StatementQueries.LastActualPlan(_major, handle), cancellationToken);
                        plan = actual.Rows.Count > 0 && actual.Rows[0][0] is string xml && xml.Contains("RunTimeInformation", StringComparison.Ordinal) ? xml : null;
                    }

                    if (plan is null)
                    {
                        var estimated = await sink.QueryAsync(StatementQueries.EstimatedPlan(handle, start, end), cancellationToken);
                        plan = estimated.Rows.Count > 0 ? estimated.Rows[0][0] as string : null;
                    }

                    if (plan is null)
                    {
                        Log.Information("statement {Key}: its plan is no longer cached", key);
                        continue;
                    }

                    Core.Files.AtomicFile.WriteAllText(phase.PathFor(BundlePaths.StatementPlan(phase.Name, key, "sqlplan")), plan);
                }
                catch (Microsoft.Data.SqlClient.SqlException e)
                {
                    Log.Information("statement {Key}: plan not read: {Error}", key, e.Message);
                }
            }
        }
        finally
        {
            if (sink is IAsyncDisposable disposable)
            {
                await disposable.DisposeAsync();
            }
        }

        return null;
    }

    private async Task PollAsync(CancellationToken cancellationToken)
    {
        var before = _clock();
        var result = await _sink!.QueryAsync(_poll!, cancellationToken);
        if (_sink.IsDryRun)
        {
            return;
        }

        // The rows describe some moment of the query: its midpoint is at most half its duration off.
        var at = before + ((_clock() - before) / 2);
        lock (_samples)
        {
            _polls.Add(at);
            _samples.AddRange(Samples(result, at));
        }
    }

    /// <summary>The samples of one poll's result (the columns of <see cref="StatementQueries.Requests"/>).</summary>
    public static IEnumerable<RequestSample> Samples(SqlResult result, DateTime utc)
    {
        ArgumentNullException.ThrowIfNull(result);
        int kind = result.IndexOf("kind"), id = result.IndexOf("session_id"), status = result.IndexOf("status"), wait = result.IndexOf("wait_type"),
            hash = result.IndexOf("query_hash"), handle = result.IndexOf("sql_handle"), start = result.IndexOf("statement_start_offset"),
            end = result.IndexOf("statement_end_offset"), dop = result.IndexOf("dop"), requested = result.IndexOf("requested_memory_kb"),
            granted = result.IndexOf("granted_memory_kb"), used = result.IndexOf("max_used_memory_kb"), blocked = result.IndexOf("blocked_by");
        foreach (var row in result.Rows)
        {
            if (row[id] is null || row[status] is null)
            {
                continue;
            }

            var blockers = (row[blocked] as string ?? "").Split(' ', StringSplitOptions.RemoveEmptyEntries)
                .Select(b => int.TryParse(b, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) ? n : 0).Where(n => n > 0).Distinct().ToArray();
            yield return new RequestSample(utc, row[kind] as string != "b", Int(row[id]), ((string)row[status]!).Trim(), (row[wait] as string)?.Trim() is { Length: > 0 } w ? w : null,
                row[hash] as string, row[handle] as string, Int(row[start]), row[end] is null ? -1 : Int(row[end]),
                Long(row[dop]), Long(row[requested]), Long(row[granted]), Long(row[used]), blockers);
        }
    }

    /// <summary>The counter rows of a read of <see cref="StatementQueries.QueryStatsAtStart"/> or <see cref="StatementQueries.QueryStatsAtEnd"/>.</summary>
    public static IEnumerable<QueryStatsRow> StatsRows(SqlResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        int Col(string name) => result.IndexOf(name);
        int plan = Col("plan_handle"), start = Col("statement_start_offset"), end = Col("statement_end_offset"), creation = Col("creation_time"), hash = Col("query_hash"),
            planHash = Col("query_plan_hash"), executions = Col("execution_count"), worker = Col("total_worker_time"), elapsed = Col("total_elapsed_time"),
            logical = Col("total_logical_reads"), physical = Col("total_physical_reads"), writes = Col("total_logical_writes"), rows = Col("total_rows"),
            grant = Col("max_grant_kb"), usedGrant = Col("max_used_grant_kb"), dop = Col("max_dop"), spills = Col("total_spills"), handle = Col("sql_handle"), text = Col("statement_text");
        foreach (var r in result.Rows)
        {
            if (r[plan] is not string planHandle)
            {
                continue;
            }

            yield return new QueryStatsRow
            {
                PlanHandle = planHandle,
                Start = Int(r[start]),
                End = r[end] is null ? -1 : Int(r[end]),
                Creation = r[creation] as string ?? "",
                QueryHash = r[hash] as string,
                PlanHash = r[planHash] as string,
                Executions = Long(r[executions]) ?? 0,
                WorkerUs = Long(r[worker]) ?? 0,
                ElapsedUs = Long(r[elapsed]) ?? 0,
                LogicalReads = Long(r[logical]) ?? 0,
                PhysicalReads = Long(r[physical]) ?? 0,
                Writes = Long(r[writes]) ?? 0,
                Rows = Long(r[rows]) ?? 0,
                MaxGrantKb = Long(r[grant]),
                MaxUsedGrantKb = Long(r[usedGrant]),
                MaxDop = Long(r[dop]),
                Spills = spills < 0 ? null : Long(r[spills]) ?? 0,
                SqlHandle = handle < 0 ? null : r[handle] as string,
                Text = text < 0 ? null : r[text] as string,
            };
        }
    }

    private async Task<Dictionary<(string, int, int), string>> TextsAsync(ISqlCommandSink sink, CancellationToken cancellationToken)
    {
        List<(string, int, int)> handles;
        lock (_samples)
        {
            handles = [.. _samples.Select(s => s.TextHandle).OfType<(string, int, int)>().Distinct().Where(h => IsHandle(h.Item1))];
        }

        var texts = new Dictionary<(string, int, int), string>();
        foreach (var chunk in handles.Chunk(StatementQueries.MaxHandlesPerBatch))
        {
            var result = await sink.QueryAsync(StatementQueries.Texts(chunk), cancellationToken);
            foreach (var row in result.Rows)
            {
                if (row[0] is not null && row[1] is string text && Int(row[0]) is var n && n >= 0 && n < chunk.Length)
                {
                    texts[chunk[n]] = text;
                }
            }
        }

        return texts;
    }

    private void Write(PhaseContext phase, IReadOnlyList<QueryStatsRow> end, Dictionary<(string, int, int), string> texts)
    {
        List<RequestSample> samples;
        List<DateTime> polls;
        lock (_samples)
        {
            samples = [.. _samples];
            polls = [.. _polls];
        }

        var sessionOf = phase.Sessions.Where(s => s.DbSessionId is not null).GroupBy(s => s.DbSessionId!.Value).ToDictionary(g => g.Key, g => g.First().Session);
        string? KeyOf(RequestSample s) =>
            StatementKey.FromQueryHash(s.QueryHash) ?? (s.TextHandle is { } h && texts.TryGetValue(h, out var t) ? StatementKey.FromText(t) : null);

        var textOf = new Dictionary<string, string>(StringComparer.Ordinal);
        var sampledMs = new Dictionary<string, double>(StringComparer.Ordinal);
        var grants = new Dictionary<string, (long? Requested, long? Granted, long? Used, long? Dop)>(StringComparer.Ordinal);
        Core.Files.AtomicFile.WriteText(phase.PathFor(BundlePaths.Activity(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.Activity.All) + "\n");
            foreach (var s in samples)
            {
                var key = KeyOf(s);
                var weight = WeightOf(polls, s.Utc);
                if (key is not null)
                {
                    if (s.TextHandle is { } h && texts.TryGetValue(h, out var text))
                    {
                        textOf.TryAdd(key, text);
                    }

                    if (s.Watched)
                    {
                        sampledMs[key] = sampledMs.GetValueOrDefault(key) + weight;
                        var g = grants.GetValueOrDefault(key);
                        grants[key] = (Max(g.Requested, s.GrantRequestedKb), Max(g.Granted, s.GrantGrantedKb), Max(g.Used, s.GrantUsedKb), Max(g.Dop, s.Dop));
                    }
                }

                int? session = !s.Watched ? null : sessionOf.Count > 0 ? sessionOf.GetValueOrDefault(s.SessionId) is var n and > 0 ? n : null : s.SessionId;
                writer.Write(Csv.Line(
                    Csv.Number((s.Utc - phase.StartUtc).TotalMilliseconds),
                    session?.ToString(CultureInfo.InvariantCulture),
                    s.SessionId.ToString(CultureInfo.InvariantCulture),
                    s.Status,
                    key,
                    s.WaitType,
                    s.BlockedBy.Count > 0 ? string.Join(' ', s.BlockedBy.Select(b => b.ToString(CultureInfo.InvariantCulture))) : null,
                    Csv.Number(weight)) + "\n");
            }
        });
        Core.Files.AtomicFile.WriteText(phase.PathFor(BundlePaths.StatementTexts(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.StatementTexts.All) + "\n");
            foreach (var (key, text) in textOf.OrderBy(kv => kv.Key, StringComparer.Ordinal))
            {
                writer.Write(Csv.Line(key, StatementKey.IsTextKey(key) ? null : key, text.ReplaceLineEndings(" ")) + "\n");
            }
        });

        var totals = new Dictionary<string, (QueryStatsRow Sum, QueryStatsRow Largest)>(StringComparer.Ordinal);
        foreach (var row in end)
        {
            if (StatementKey.FromQueryHash(row.QueryHash) is not { } key)
            {
                continue;
            }

            var delta = row.Since(_start.GetValueOrDefault(row.Identity));
            if (delta.Executions <= 0 && delta.ElapsedUs <= 0)
            {
                continue;
            }

            totals[key] = totals.TryGetValue(key, out var t)
                ? (t.Sum with
                {
                    Executions = t.Sum.Executions + delta.Executions, WorkerUs = t.Sum.WorkerUs + delta.WorkerUs, ElapsedUs = t.Sum.ElapsedUs + delta.ElapsedUs,
                    LogicalReads = t.Sum.LogicalReads + delta.LogicalReads, PhysicalReads = t.Sum.PhysicalReads + delta.PhysicalReads, Writes = t.Sum.Writes + delta.Writes,
                    Rows = t.Sum.Rows + delta.Rows, Spills = t.Sum.Spills + delta.Spills, MaxGrantKb = Max(t.Sum.MaxGrantKb, delta.MaxGrantKb), MaxDop = Max(t.Sum.MaxDop, delta.MaxDop),
                }, delta.ElapsedUs > t.Largest.ElapsedUs ? delta : t.Largest)
                : (delta, delta);
        }

        Core.Files.AtomicFile.WriteText(phase.PathFor(BundlePaths.StatementStats(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.Statements.All) + "\n");
            foreach (var (key, (sum, largest)) in totals.OrderByDescending(t => t.Value.Sum.ElapsedUs).ThenBy(t => t.Key, StringComparer.Ordinal))
            {
                var g = grants.GetValueOrDefault(key);
                var text = largest.Text ?? textOf.GetValueOrDefault(key) ?? "";
                writer.Write(Csv.Line(
                    key, key, largest.PlanHash, text.ReplaceLineEndings(" "),
                    Csv.Number(sum.Executions), Csv.Number(sum.ElapsedUs / 1000.0), Csv.Number(sum.WorkerUs / 1000.0), Csv.Number(sum.Rows),
                    Csv.Number(sum.LogicalReads), Csv.Number(sum.PhysicalReads), Csv.Number(sum.Writes), sum.Spills is { } spills ? Csv.Number(spills) : null,
                    Number(g.Requested), Number(g.Granted), Number(g.Used), Number(sum.MaxGrantKb), Number(Max(sum.MaxDop, g.Dop))) + "\n");
                _planOf[key] = (largest.PlanHandle, largest.Start, largest.End);
            }
        });

        _planOrder = [.. totals.OrderByDescending(t => t.Value.Sum.ElapsedUs).Select(t => t.Key).Take(MaxPlans)
            .Union(sampledMs.OrderByDescending(s => s.Value).Select(s => s.Key).Where(_planOf.ContainsKey).Take(MaxPlans))
            .Where(k => IsHandle(_planOf[k].PlanHandle))];
    }

    /// <summary>
    /// The time a sample of the poll at <paramref name="utc"/> stands for: half the way to the poll before and half the
    /// way to the one after, so polls delayed by a busy server do not under-count the statements that keep it busy.
    /// </summary>
    public static double WeightOf(IReadOnlyList<DateTime> polls, DateTime utc)
    {
        ArgumentNullException.ThrowIfNull(polls);
        var list = polls as List<DateTime> ?? [.. polls];
        var i = list.BinarySearch(utc);
        if (i < 0 || list.Count < 2)
        {
            return DefaultInterval.TotalMilliseconds;
        }

        var before = i > 0 ? (list[i] - list[i - 1]).TotalMilliseconds : (list[i + 1] - list[i]).TotalMilliseconds;
        var after = i < list.Count - 1 ? (list[i + 1] - list[i]).TotalMilliseconds : before;
        return (before + after) / 2;
    }

    private static bool IsHandle(string handle) =>
        handle.Length is >= 4 and <= 130 && handle.StartsWith("0x", StringComparison.Ordinal) && handle.AsSpan(2).ContainsAnyExcept("0") && handle.Skip(2).All(char.IsAsciiHexDigit);

    private static long? Max(long? a, long? b) => a is null ? b : b is null ? a : Math.Max(a.Value, b.Value);

    private static string? Number(long? value) => value is { } v ? Csv.Number(v) : null;

    private static int Int(object? value) => value is null ? 0 : Convert.ToInt32(value, CultureInfo.InvariantCulture);

    private static long? Long(object? value) => value is null ? null : Convert.ToInt64(value, CultureInfo.InvariantCulture);
}
