using Npgsql;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// <c>--explain</c> in attach mode: once every collector has stopped, a plain <c>EXPLAIN (VERBOSE, FORMAT JSON)</c> of the
/// statements the watched sessions spent most samples in, as the session sampler wrote them (activity.csv,
/// statements/texts.csv). Nothing of the user's runs: plain EXPLAIN only plans, inside a read-only transaction, with
/// short lock and statement timeouts so planning never queues behind the locks it came to observe. A text with
/// parameters (<c>$1</c>, sent by a driver's extended protocol) or cut by the server cannot be planned and is logged.
/// A statement whose plan the server's auto_explain logged (<see cref="PgAutoExplainCollector"/>, which runs first)
/// keeps that one.
/// </summary>
public sealed class PgExplainCollector : ICollector, IAfterPhase
{
    /// <summary>Statements explained: the ones with most samples.</summary>
    public const int MaxStatements = 5;

    private readonly string _connectionString;
    private readonly string? _database;

    /// <summary>
    /// Creates the collector; <paramref name="database"/> is the database the watched sessions were filtered to
    /// (<c>--database</c>): their statements name its tables, while the monitoring connection keeps its own database.
    /// </summary>
    public PgExplainCollector(string connectionString, string? database = null)
    {
        _connectionString = connectionString;
        _database = database;
    }

    /// <inheritdoc />
    public string Name => "pg-explain";

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <inheritdoc />
    public Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken) =>
        Task.FromResult(new CollectorOutcome(Name, CollectorStatus.Ok, 0, null));

    /// <inheritdoc />
    public async Task<CollectorOutcome?> AfterPhaseAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        var top = TopStatements(phase);
        if (top.Count == 0)
        {
            Log.Information("--explain: no statement was sampled in the watched sessions");
            return null;
        }

        await using var connection = new NpgsqlConnection(ExplainConnectionString());
        await connection.OpenAsync(cancellationToken);
        await using (var settings = new NpgsqlCommand("SET lock_timeout = '500ms'; SET statement_timeout = '5s'", connection))
        {
            await settings.ExecuteNonQueryAsync(cancellationToken);
        }

        foreach (var (key, text) in top)
        {
            if (File.Exists(phase.PathFor(BundlePaths.StatementPlan(phase.Name, key, "json"))))
            {
                // The plan the server's auto_explain logged as the statement ran is kept over a plain EXPLAIN's.
                Log.Information("--explain: statement {Key} has auto_explain's plan from the server's log", key);
                continue;
            }

            if (WhyNotExplained(text) is { } why)
            {
                Log.Information("--explain: statement {Key} not explained: {Why}", key, why);
                continue;
            }

            try
            {
                await using var tx = await connection.BeginTransactionAsync(System.Data.IsolationLevel.ReadCommitted, cancellationToken);
                await using (var readOnly = new NpgsqlCommand("SET TRANSACTION READ ONLY", connection, tx))
                {
                    await readOnly.ExecuteNonQueryAsync(cancellationToken);
                }

                await using var explain = new NpgsqlCommand(PgMonitorSql.Marked("EXPLAIN (VERBOSE, FORMAT JSON) ") + text.Trim().TrimEnd(';'), connection, tx);
                var json = (await Engine.LargeValues.ReadTextAsync(explain, cancellationToken))!;
                await tx.RollbackAsync(cancellationToken);
                Core.Files.AtomicFile.WriteAllText(phase.PathFor(BundlePaths.StatementPlan(phase.Name, key, "json")), json);
                Log.Information("--explain: plan of statement {Key} written", key);
            }
            catch (PostgresException e)
            {
                Log.Information("--explain: statement {Key} not explained: {Error}", key, e.MessageText);
            }
        }

        return null;
    }

    private string ExplainConnectionString()
    {
        var builder = new NpgsqlConnectionStringBuilder(_connectionString) { ApplicationName = "probe-monitor", Pooling = false };
        if (_database is not null)
        {
            builder.Database = _database;
        }

        return builder.ConnectionString;
    }

    /// <summary>Why a sampled text cannot be given to EXPLAIN, or null.</summary>
    public static string? WhyNotExplained(string text)
    {
        if (System.Text.RegularExpressions.Regex.IsMatch(text, @"\$\d"))
        {
            return "its text has parameters ($1…), whose values pg_stat_activity does not show";
        }

        return text.Length >= 1023 ? "its text may be cut at track_activity_query_size" : null;
    }

    private static List<(string Key, string Text)> TopStatements(PhaseContext phase)
    {
        var activity = phase.PathFor(BundlePaths.Activity(phase.Name));
        var texts = phase.PathFor(BundlePaths.StatementTexts(phase.Name));
        if (!File.Exists(activity) || !File.Exists(texts))
        {
            return [];
        }

        var samples = new Dictionary<string, int>(StringComparer.Ordinal);
        using (var reader = new StreamReader(activity))
        {
            foreach (var row in Csv.ReadRows(reader))
            {
                if (row[BundleColumns.Activity.Session].Length > 0 && row[BundleColumns.Activity.State] == "active" && row[BundleColumns.Activity.Statement] is { Length: > 0 } key)
                {
                    samples[key] = samples.GetValueOrDefault(key) + 1;
                }
            }
        }

        Dictionary<string, string> byKey;
        using (var reader = new StreamReader(texts))
        {
            byKey = Csv.ReadRows(reader).ToDictionary(r => r[BundleColumns.StatementTexts.Statement], r => r[BundleColumns.StatementTexts.Text], StringComparer.Ordinal);
        }

        return [.. samples.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, StringComparer.Ordinal).Take(MaxStatements)
            .Where(kv => byKey.ContainsKey(kv.Key)).Select(kv => (kv.Key, byKey[kv.Key]))];
    }
}
