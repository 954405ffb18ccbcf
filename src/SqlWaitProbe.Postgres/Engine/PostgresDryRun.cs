using System.Globalization;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Postgres.Attach;
using SqlWaitProbe.Postgres.Embedded;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary><c>probe capture --dry-run</c> for PostgreSQL: every statement the capture would send, connecting to nothing.</summary>
public static class PostgresDryRun
{
    /// <summary>Writes the plan to <paramref name="output"/>.</summary>
    public static void Write(PostgresSettings request, CapturePlan plan, TextWriter output)
    {
        output.WriteLine($"-- server: {(request.Server is null ? $"embedded PostgreSQL from {PostgresBinaries.TryFind() ?? "(not installed: " + PostgresBinaries.InstallCommand + ")"}, initdb into a temporary probe-pg-RUNID folder" : PostgresConnectionStrings.Redact(request.Server))}");
        output.WriteLine("-- the server's configuration, read-only, once (recorded in manifest.json for probe compare)");
        output.WriteLine(PostgresServerInfo.SettingsQuery + ";");
        if (request.Attach is { } filter)
        {
            PrintAttach(plan, filter, output);
            output.WriteLine("-- monitoring connection, during the window");
            output.WriteLine("-- every 10 ms: each matching client backend, as it connects and disconnects (pid and backend_start; query_id from PostgreSQL 14), and the sessions blocking a lock wait");
            output.WriteLine(Collectors.PgWaitsCollector.AttachActivityQuery(filter, hasQueryId: true) + ";");
            output.WriteLine("-- when the server has auto_explain loaded: at the window's start, the log file and its size; after it, what the server logged since, at most 32 MB (read-only)");
            output.WriteLine("SET auto_explain.log_min_duration = -1; -- the probe's own sessions only, where the role may (superuser); nothing on the server changes");
            output.WriteLine("SELECT current_setting('logging_collector'), current_setting('log_destination'), current_setting('auto_explain.log_min_duration', true);");
            output.WriteLine("SELECT f, (SELECT size FROM pg_ls_logdir() WHERE name = <file name>) FROM pg_current_logfile(<jsonlog|csvlog|stderr>) f;");
            output.WriteLine("SELECT name, size, modification FROM pg_ls_logdir(); SELECT pg_read_binary_file(<file>, <offset>, <4 MB at most>); -- after the window");
        }
        else
        {
            PrintWorkload(request, plan, output);
            output.WriteLine("-- monitoring connection, per phase");
            output.WriteLine("SELECT event_type, event, queryid, sum(count) FROM pg_wait_sampling_profile WHERE pid = ANY(<backends>) ... -- once a second, when pg_wait_sampling is loaded");
            output.WriteLine("SELECT pid, state, wait_event_type, wait_event, query_id, left(query, 4096), pg_blocking_pids(pid) -- for lock waits only");
            output.WriteLine("  FROM pg_stat_activity WHERE pid = ANY(<backends>) AND state IS DISTINCT FROM 'idle' ... -- every 10 ms, and the sessions blocking them");
        }

        output.WriteLine("SELECT xact_commit, ... FROM pg_stat_database WHERE datname = current_database(); -- once a second");
        output.WriteLine("SELECT queryid, min(query), sum(calls), ... FROM pg_stat_statements ... GROUP BY queryid; -- when the window opens and when it closes, if pg_stat_statements is loaded and created");
        if (request.Attach is not null && request.Explain)
        {
            output.WriteLine("-- after the window (--explain): SET TRANSACTION READ ONLY; EXPLAIN (VERBOSE, FORMAT JSON) <text> -- for the 5 statements with most samples, lock_timeout 500ms, no ANALYZE");
        }
    }

    private static void PrintWorkload(PostgresSettings request, CapturePlan plan, TextWriter output)
    {
        var w = request.Workload!;
        output.WriteLine("-- phases: " + string.Join(", ", plan.Phases.Select(p => $"{p.Name} ({p.Threads} session(s))"))
            + (plan.Duration is { } d ? $", {d.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture)} s each" : $", executions {string.Join("; ", plan.Phases.Select(p => $"{p.Name}: {plan.DescribeIterations(p.Threads)}"))}")
            + (plan.HasWarmup ? $"; first a warm-up on 1 session of {(plan.WarmupDuration is { } wd ? wd.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) + " s" : plan.WarmupExecutions.ToString(CultureInfo.InvariantCulture) + " execution(s)")}, not measured" : ""));
        output.WriteLine($"-- workload {w.Name}: setup (once, idempotent)");
        foreach (var s in w.Setup)
        {
            output.WriteLine(s.Trim() + ";");
        }

        output.WriteLine("-- each session, when it opens");
        foreach (var s in w.SessionSetup)
        {
            output.WriteLine(s.Trim() + ";");
        }

        output.WriteLine("SELECT pg_backend_pid();");
        output.WriteLine("-- every execution");
        output.WriteLine(w.Query.Trim() + ";");
    }

    private static void PrintAttach(CapturePlan plan, PostgresSessionFilter filter, TextWriter output)
    {
        var seconds = (plan.Duration ?? TimeSpan.FromSeconds(30)).TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture);
        output.WriteLine($"-- attach: one phase 'attach' of {seconds} s; no workload, nothing created or changed on the server (read-only)");
        output.WriteLine($"-- every probe connection has application_name '{PostgresSessionFilter.ProbeApplicationName}'");
        output.WriteLine("SELECT current_setting('server_version'), EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_wait_sampling') ..., pg_backend_pid();");
        output.WriteLine("-- what the role may see (superuser or pg_read_all_stats) and whether the server tracks what backends do");
        output.WriteLine(PostgresSessionFilter.PrivilegeQuery + ";");
        output.WriteLine($"-- the matching client backends ({Flatten(filter.Describe())}), looked for up to {AttachSurvey.Patience.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture)} s before the window opens; the capture is refused when none matches");
        output.WriteLine(filter.Query + ";");
        output.WriteLine("-- when the role lacks pg_read_all_stats: other roles' matching sessions it cannot look into, named as hidden");
        output.WriteLine(filter.HiddenQuery + ";");
        foreach (var (name, value) in Parameters(filter))
        {
            output.WriteLine($"--   @{name} = {Literal(value)}");
        }
    }

    /// <summary>
    /// A value as a PostgreSQL escape-string literal (<c>E'…'</c>): a newline, quote or backslash in a filter value
    /// is printed escaped, so the comment it sits in cannot end early and a pasted line cannot run as SQL.
    /// </summary>
    public static string Literal(string value)
    {
        var sb = new System.Text.StringBuilder("E'");
        foreach (var c in value)
        {
            sb.Append(c switch
            {
                '\'' => "\\'",
                '\\' => "\\\\",
                '\n' => "\\n",
                '\r' => "\\r",
                '\t' => "\\t",
                _ when char.IsControl(c) || c is '\u2028' or '\u2029' => "\\u" + ((int)c).ToString("x4", CultureInfo.InvariantCulture),
                _ => c.ToString(),
            });
        }

        return sb.Append('\'').ToString();
    }

    private static string Flatten(string text) => string.Concat(text.Select(c => char.IsControl(c) ? ' ' : c));

    private static IEnumerable<(string, string)> Parameters(PostgresSessionFilter filter)
    {
        if (filter.Database is not null) yield return ("database", filter.Database);
        if (filter.Application is not null) yield return ("application", filter.Application);
        if (filter.Login is not null) yield return ("login", filter.Login);
        if (filter.Pids.Count > 0) yield return ("pids", "{" + string.Join(",", filter.Pids) + "}");
    }
}
