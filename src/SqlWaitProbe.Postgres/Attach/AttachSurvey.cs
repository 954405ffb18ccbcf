using Npgsql;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Postgres.Attach;

/// <summary>
/// What an attach capture can watch, found before anything is collected: the matching backends the monitoring role
/// sees, those of other roles it cannot look into, and whether the server tracks backends' activity at all. Refuses
/// a window that would watch nothing: exit 1 when every matching session is hidden for lack of privilege (with the
/// grant that fixes it), exit 2 when the filters match no client backend (naming the filters and what is connected).
/// </summary>
public sealed record AttachSurvey
{
    /// <summary>How long the survey looks again for a matching backend before giving up: a connection-per-transaction client has one only now and then.</summary>
    public static readonly TimeSpan Patience = TimeSpan.FromSeconds(1);

    /// <summary>The monitoring role.</summary>
    public required string Role { get; init; }

    /// <summary>True when the role reads every role's activity (superuser or member of <c>pg_read_all_stats</c>).</summary>
    public required bool SeesAll { get; init; }

    /// <summary><c>track_activities</c>: when off, backends show state <c>disabled</c> and no waits.</summary>
    public required bool TracksActivities { get; init; }

    /// <summary>The matching backends the role can see.</summary>
    public required IReadOnlyList<PostgresBackend> Visible { get; init; }

    /// <summary>The matching backends of other roles the role cannot look into.</summary>
    public required IReadOnlyList<PostgresBackend> Hidden { get; init; }

    /// <summary>The grant that lets the role see every session.</summary>
    public string Grant => $"GRANT pg_monitor TO {QuoteIdentifier(Role)};";

    /// <summary>
    /// Looks, refuses a window that would watch nothing, and returns what will be watched. With
    /// <paramref name="openWhenNoneMatch"/> (a watch, which waits for its sessions to come) a window of no session opens;
    /// one whose sessions are all hidden from the role is still refused.
    /// </summary>
    public static async Task<AttachSurvey> RunAsync(string connectionString, PostgresSessionFilter filter, string server, CancellationToken cancellationToken, bool openWhenNoneMatch = false)
    {
        await using var connection = PostgresSessionFilter.Connect(connectionString);
        await connection.OpenAsync(cancellationToken);
        string role;
        bool seesAll, tracks;
        await using (var cmd = new NpgsqlCommand(PostgresSessionFilter.PrivilegeQuery, connection))
        await using (var reader = await cmd.ExecuteReaderAsync(cancellationToken))
        {
            await reader.ReadAsync(cancellationToken);
            role = reader.GetString(0);
            seesAll = !reader.IsDBNull(1) && reader.GetBoolean(1);
            tracks = !string.Equals(reader.GetString(2), "off", StringComparison.OrdinalIgnoreCase);
        }

        var visible = await filter.ListAsync(connection, filter.Query, true, cancellationToken);
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (visible.Count == 0 && waited.Elapsed < Patience && !openWhenNoneMatch)
        {
            await Task.Delay(20, cancellationToken);
            visible = await filter.ListAsync(connection, filter.Query, true, cancellationToken);
        }

        var hidden = seesAll ? [] : await filter.ListAsync(connection, filter.HiddenQuery, true, cancellationToken);
        var survey = new AttachSurvey { Role = role, SeesAll = seesAll, TracksActivities = tracks, Visible = visible, Hidden = hidden };
        if (visible.Count > 0 || (openWhenNoneMatch && hidden.Count == 0))
        {
            return survey;
        }

        if (hidden.Count > 0)
        {
            throw Naming(hidden, new EnvironmentProblemException(
                $"role {role} cannot see other roles' sessions on {server}: the {hidden.Count} matching session(s) are hidden ({PostgresBackend.List(hidden)}), so attach would watch nothing",
                $"Ask an administrator to run: {survey.Grant} (or connect as a role that has it)."));
        }

        var existing = await filter.ListAsync(connection, PostgresSessionFilter.ExistingQuery, false, cancellationToken);
        if (filter.Filters)
        {
            throw Naming(existing, new BadInputException(
                existing.Count == 0
                    ? $"{filter.DescribeOptions()} matches no client backend on {server}, and none is connected besides the probe's own: start the workload first, then attach"
                    : $"{filter.DescribeOptions()} matches no client backend on {server}; connected now: {PostgresBackend.List(existing)}. Change the filter to one of these, or start the workload first"));
        }

        throw new BadInputException($"no client backend is connected to {server} besides the probe's own: start the workload first, then attach");
    }

    /// <summary>A refusal that quotes <paramref name="backends"/>, with their names for the failed bundle's manifest (<see cref="AttachWindow.RefusalOptionsKey"/>).</summary>
    private static Exception Naming(IReadOnlyList<PostgresBackend> backends, Exception refusal)
    {
        refusal.Data[AttachWindow.RefusalOptionsKey] = PostgresBackend.NameOptions(backends.Take(10));
        return refusal;
    }

    /// <summary><paramref name="name"/> as an SQL identifier: bare when it is a plain lower-case name, else double-quoted.</summary>
    public static string QuoteIdentifier(string name) =>
        name.All(c => c is >= 'a' and <= 'z' or >= '0' and <= '9' or '_') && name.Length > 0 && !char.IsDigit(name[0])
            ? name
            : "\"" + name.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
