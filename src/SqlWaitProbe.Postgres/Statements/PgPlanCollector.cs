using System.Text.Json;
using Npgsql;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Statements;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// The plan of the workload's statement in a workload run: once every collector of the phase has stopped, one
/// <c>EXPLAIN (ANALYZE, BUFFERS, VERBOSE, FORMAT JSON)</c> of it on a connection of its own set up as the sessions are,
/// written to <c>statements/plans/q&lt;key&gt;.json</c>. It runs the statement once more: workload statements are the
/// probe's own or the user's chosen test, never a statement of an attached server.
/// </summary>
public sealed class PgPlanCollector : ICollector, IAfterPhase
{
    private readonly string _connectionString;
    private readonly WorkloadDefinition _workload;

    /// <summary>Creates the collector for <paramref name="workload"/>.</summary>
    public PgPlanCollector(string connectionString, WorkloadDefinition workload)
    {
        _connectionString = connectionString;
        _workload = workload;
    }

    /// <inheritdoc />
    public string Name => "pg-plan";

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <inheritdoc />
    public Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken) =>
        Task.FromResult(new CollectorOutcome(Name, CollectorStatus.Ok, 0, null));

    /// <summary>Why the workload's query gets no plan, or null when it can: EXPLAIN takes one statement.</summary>
    public static string? WhyNoPlan(string query) =>
        query.Trim().TrimEnd(';').Contains(';', StringComparison.Ordinal)
            ? "the workload query holds several statements and EXPLAIN takes one"
            : null;

    /// <inheritdoc />
    public async Task<CollectorOutcome?> AfterPhaseAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (WhyNoPlan(_workload.Query) is { } why)
        {
            Log.Information("phase {Phase}: no plan: {Why}", phase.Name, why);
            return null;
        }

        await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(_connectionString) { ApplicationName = "probe-monitor", Pooling = false }.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        foreach (var statement in _workload.SessionSetup)
        {
            await using var setup = new NpgsqlCommand(statement, connection);
            await setup.ExecuteNonQueryAsync(cancellationToken);
        }

        // EXPLAIN ANALYZE runs the statement once more: no longer than the capture waits for an execution after a phase,
        // so a statement of minutes does not hold the capture for minutes more.
        var limitMs = Math.Max(1, (long)phase.FinishWithin.TotalMilliseconds);
        await using (var timeout = new NpgsqlCommand($"SET statement_timeout = {limitMs}", connection))
        {
            await timeout.ExecuteNonQueryAsync(cancellationToken);
        }

        string json;
        await using (var explain = new NpgsqlCommand("EXPLAIN (ANALYZE, BUFFERS, VERBOSE, FORMAT JSON) " + _workload.Query.Trim().TrimEnd(';'), connection) { CommandTimeout = 0 })
        {
            try
            {
                json = (await Engine.LargeValues.ReadTextAsync(explain, cancellationToken))!;
            }
            catch (PostgresException e) when (e.SqlState == PostgresErrorCodes.QueryCanceled && !cancellationToken.IsCancellationRequested)
            {
                Log.Information("phase {Phase}: no plan: EXPLAIN ANALYZE of the workload statement ran longer than --finish-within ({Seconds:0.###} s) and was cancelled",
                    phase.Name, phase.FinishWithin.TotalSeconds);
                return null;
            }
        }

        var key = KeyOf(json) ?? StatementKey.FromText(_workload.Query)!;
        Core.Files.AtomicFile.WriteAllText(phase.PathFor(BundlePaths.StatementPlan(phase.Name, key, "json")), json);
        Log.Information("phase {Phase}: plan of the workload statement {Key} written", phase.Name, key);

        return null;
    }

    /// <summary>The statement key of the plan's <c>Query Identifier</c> (shown by VERBOSE when the server computes ids).</summary>
    public static string? KeyOf(string json)
    {
        using var doc = JsonDocument.Parse(json);
        var root = doc.RootElement.ValueKind == JsonValueKind.Array && doc.RootElement.GetArrayLength() > 0 ? doc.RootElement[0] : doc.RootElement;
        return root.ValueKind == JsonValueKind.Object && root.TryGetProperty("Query Identifier", out var id) && id.TryGetInt64(out var value)
            ? StatementKey.FromQueryId(value)
            : null;
    }
}
