using System.Text;
using Npgsql;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Postgres.Engine;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// Attach mode's plans from the server's own <c>auto_explain</c>: when the window opens, the log file the logging
/// collector writes and its size (<see cref="AutoExplainLogFile.LocateAsync"/>); once every collector has
/// stopped, what the server wrote to it from there on, read over the connection (<c>pg_read_binary_file</c>) and at
/// most <see cref="MaxBytes"/>, its auto_explain plans matched to the watched statements (<see cref="AutoExplainMatcher"/>)
/// and the one kept per statement written as the statement's plan file, as <c>--explain</c> writes its plans.
/// Read-only: the probe changes nothing on the server; its own monitoring statements are kept out of auto_explain
/// for its own sessions when the role may set that (superuser). What was read, or why nothing could be, is the
/// collector's outcome, which Data quality shows.
/// </summary>
public sealed class PgAutoExplainCollector : ICollector, IAfterPhase
{
    /// <summary>Most bytes of the log read for one window: a busy server with auto_explain at 0 ms logs megabytes a second.</summary>
    public const long MaxBytes = 32L * 1024 * 1024;

    private const int ChunkBytes = 4 * 1024 * 1024;
    private readonly string _connectionString;
    private readonly string _described;
    private AutoExplainLogFile? _start;
    private string? _unreadable;

    /// <summary>Creates the collector; <paramref name="described"/> is auto_explain's settings as the server showed them.</summary>
    public PgAutoExplainCollector(string connectionString, string described)
    {
        _connectionString = connectionString;
        _described = described;
    }

    /// <inheritdoc />
    public string Name => "pg-auto-explain";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(_connectionString, cancellationToken);
        (_start, _unreadable) = await AutoExplainLogFile.LocateAsync(connection, _described, cancellationToken);
        if (_start is { } s)
        {
            Log.Information("auto_explain: reading {Path} ({Format}) from byte {Offset} after the window", s.Path, s.Format, s.Offset);
        }
    }

    /// <inheritdoc />
    public Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.FromResult(_unreadable is { } why
        ? new CollectorOutcome(Name, CollectorStatus.Skipped, 0, why)
        : new CollectorOutcome(Name, CollectorStatus.Skipped, 0, "the server's log was not read: the window was interrupted, or reading it failed (capture.log says why)"));

    /// <inheritdoc />
    public async Task<CollectorOutcome?> AfterPhaseAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_start is not { } start)
        {
            return null;
        }

        await using var connection = await OpenAsync(_connectionString, cancellationToken);
        var segments = await start.SegmentsSinceAsync(connection, phase.StartUtc, cancellationToken);
        var written = segments.Sum(s => s.To - s.From);
        var bytes = new MemoryStream();
        foreach (var segment in segments)
        {
            for (var offset = segment.From; offset < segment.To && bytes.Length < MaxBytes; offset += ChunkBytes)
            {
                var length = Math.Min(Math.Min(ChunkBytes, segment.To - offset), MaxBytes - bytes.Length);
                await using var read = new NpgsqlCommand(PgMonitorSql.Marked("SELECT pg_read_binary_file(@path, @offset, @length)"), connection);
                read.Parameters.AddWithValue("path", segment.Path);
                read.Parameters.AddWithValue("offset", offset);
                read.Parameters.AddWithValue("length", length);

                // A chunk of megabytes does not fit the driver's buffer: read to its end asynchronously (LargeValues).
                var chunk = await LargeValues.ReadAsync<byte[]>(read, cancellationToken) ?? [];
                bytes.Write(chunk);
                if (chunk.Length < length)
                {
                    break;
                }
            }
        }

        var entries = AutoExplainLog.Read(Encoding.UTF8.GetString(bytes.GetBuffer(), 0, (int)bytes.Length), start.Format);
        var statements = PhaseStatementTexts.Read(phase);
        var match = AutoExplainMatcher.Match(entries, statements.Known, statements.WatchedPids);
        foreach (var (key, entry) in match.Chosen)
        {
            // The same form as EXPLAIN (FORMAT JSON) prints: an array holding the plan object.
            Core.Files.AtomicFile.WriteAllText(phase.PathFor(BundlePaths.StatementPlan(phase.Name, key, "json")), "[\n" + entry.PlanJson + "\n]\n");
            Log.Information("auto_explain: plan of statement {Key} written ({Duration} ms execution, pid {Pid})", key, entry.DurationMs, entry.Pid);
        }

        return new CollectorOutcome(Name, CollectorStatus.Ok, 0, Describe(start, segments, bytes.Length, written, entries.Count, match));
    }

    /// <summary>What Data quality says about the plans read from the log.</summary>
    private string Describe(AutoExplainLogFile start, IReadOnlyList<AutoExplainLogFile.Segment> segments, long read, long written, int logged, AutoExplainMatch match)
    {
        var text = new StringBuilder();
        text.Append($"read {Size(read)} of the server's {start.Format} log ({string.Join(", ", segments.Select(s => s.Path).Distinct(StringComparer.Ordinal))}) written from the window's start; ");
        text.Append($"auto_explain ({_described}) logged {Count(logged, "plan")} there: {match.Matched} of the watched sessions' statements, ");
        text.Append(match.Chosen.Count == 0
            ? "so no statement has a plan from it (auto_explain logs only executions longer than auto_explain.log_min_duration, and only where auto_explain.sample_rate picks them)"
            : $"whose plan is saved for {Count(match.Chosen.Count, "statement")} (statements/plans: of each, a plan a watched session logged, the slowest of them)");
        text.Append($", {match.Other} of other statements, {match.Own} of the probe's own monitoring statements");
        if (match.Own > 0)
        {
            text.Append(" (only a superuser role can keep them out: SET auto_explain.log_min_duration in the probe's sessions)");
        }

        foreach (var (format, count) in match.NotJson.OrderBy(kv => kv.Key, StringComparer.Ordinal))
        {
            text.Append(format == "unreadable"
                ? $"; {Count(count, "plan")} could not be read (cut by the end of what was read, or damaged)"
                : $"; {Count(count, "plan")} logged in {format} format were recognised but not read (auto_explain.log_format = json makes them readable)");
        }

        if (match.WithoutActuals > 0)
        {
            text.Append($"; {Count(match.WithoutActuals, "plan")} of the watched statements have no run-time figures (auto_explain.log_analyze is off), so their spills and estimate errors cannot be shown");
        }

        if (written > read)
        {
            text.Append($"; the log grew by {Size(written)} meanwhile, more than the {MaxBytes / 1048576} MB the probe reads: plans logged after the first {MaxBytes / 1048576} MB are not read");
        }

        if (segments.Count > 1)
        {
            text.Append($"; the server started {Count(segments.Count - 1, "new log file")} during the window, read in turn");
        }

        return text.ToString();
    }

    private static string Size(long bytes) => bytes < 1048576 ? $"{F(bytes / 1024.0)} KB" : $"{F(bytes / 1048576.0)} MB";

    private static Task<NpgsqlConnection> OpenAsync(string connectionString, CancellationToken cancellationToken) =>
        Collectors.MonitorConnection.OpenAsync(connectionString, true, cancellationToken);
}
