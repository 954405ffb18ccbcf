using System.Globalization;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Postgres.Workloads;

/// <summary>The PostgreSQL workloads.</summary>
public static class PostgresWorkloadCatalog
{
    /// <summary>The scale used when none is given: one <c>hashbytes</c> execution takes about half a second on a small VM.</summary>
    public const double DefaultScale = 0.5;

    /// <summary>Every PostgreSQL workload at the given data scale.</summary>
    public static IReadOnlyList<WorkloadDefinition> Create(double scale)
    {
        Core.Options.WorkloadScale.Check(scale);

        var hashRows = Rows(2_000_000, scale);
        var probeRows = Rows(2_000_000, scale);
        var buildRows = Rows(500_000, scale);
        var copyRows = Rows(1_000_000, scale);
        var insertRows = Rows(20_000, scale);
        return
        [
            new WorkloadDefinition
            {
                Name = "hashbytes",
                Engine = "postgres",
                Summary = $"SHA-256 of every row of a {hashRows:N0}-row table of short strings through pgcrypto digest(), aggregated to one row.",
                KnownToShow = "Sessions look busy on CPU with no wait event, yet per-execution time grows with sessions: "
                    + "about half the backend CPU is in libcrypto, with glibc locks and malloc inside OpenSSL's algorithm fetch path.",
                Setup =
                [
                    "CREATE EXTENSION IF NOT EXISTS pgcrypto",
                    .. EnsureTable("hb_demo", hashRows, "SELECT 'row-' || g::text AS id FROM generate_series(1, {0}) AS g"),
                ],
                Query = "SELECT sum(get_byte(digest(id, 'sha256'), 0)) FROM hb_demo",
                SessionSetup = ["SET max_parallel_workers_per_gather = 0"],
            },
            new WorkloadDefinition
            {
                Name = "noop",
                Engine = "postgres",
                Summary = "SELECT 1: measures the driver and the connection round trip, not the server.",
                KnownToShow = "The client's own ceiling: compare its rate with pgbench on the same server.",
                Setup = [],
                Query = "SELECT 1",
            },
            new WorkloadDefinition
            {
                Name = "hash-join",
                Engine = "postgres",
                Summary = $"Hash join of a {probeRows:N0}-row table with a {buildRows:N0}-row one under a 256 MB work_mem, counting distinct groups.",
                KnownToShow = "Memory-bound CPU: hash table build and probe (ExecHashJoin, hash_search) and page faults as work_mem is "
                    + "allocated and freed by every execution.",
                Setup =
                [
                    .. EnsureTable("hj_build", buildRows, "SELECT g AS id, g % 1000 AS grp, md5(g::text) AS pad FROM generate_series(1, {0}) AS g"),
                    .. EnsureTable("hj_probe", probeRows, $"SELECT g AS id, (g % {buildRows}) + 1 AS build_id FROM generate_series(1, {{0}}) AS g"),
                ],
                Query = "SELECT count(*), count(DISTINCT b.grp) FROM hj_probe AS p JOIN hj_build AS b ON b.id = p.build_id",
                SessionSetup = ["SET work_mem = '256MB'", "SET enable_mergejoin = off", "SET enable_nestloop = off", "SET max_parallel_workers_per_gather = 0"],
            },
            new WorkloadDefinition
            {
                Name = "select-into",
                Engine = "postgres",
                Summary = $"CREATE TEMP TABLE … AS SELECT of {copyRows:N0} rows, dropped again, in every execution.",
                KnownToShow = "Temporary-table churn: local buffer writes, catalog inserts and deletes, file creation and unlink in the kernel.",
                Setup = [.. EnsureTable("si_source", copyRows, "SELECT g AS id, md5(g::text) AS payload FROM generate_series(1, {0}) AS g")],
                Query = "CREATE TEMP TABLE si_copy AS SELECT * FROM si_source; DROP TABLE si_copy",
            },
            new WorkloadDefinition
            {
                Name = "parallel-insert",
                Engine = "postgres",
                Summary = $"Every session inserts {insertRows:N0} rows into one shared heap (emptied at setup; it grows during the capture).",
                KnownToShow = "Concurrent extension of one relation and WAL: Lock:extend and LWLock:WALWrite/WALInsert waits that grow with sessions.",
                Setup =
                [
                    "CREATE UNLOGGED TABLE IF NOT EXISTS pi_target (id bigint, payload text)",
                    "TRUNCATE pi_target",
                ],
                Query = $"INSERT INTO pi_target SELECT g, repeat('x', 100) FROM generate_series(1, {insertRows}) AS g",
            },
        ];
    }

    /// <summary>The workload named <paramref name="name"/>, or a <see cref="BadInputException"/> listing the names.</summary>
    public static WorkloadDefinition Get(string name, double scale)
    {
        var all = Create(scale);
        return all.FirstOrDefault(w => string.Equals(w.Name, name, StringComparison.OrdinalIgnoreCase))
            ?? throw new BadInputException($"unknown postgres workload '{name}'; known: {string.Join(", ", all.Select(w => w.Name))}");
    }

    private static long Rows(long full, double scale) => Math.Max(1, (long)Math.Round(full * scale));

    /// <summary>
    /// A DO block that keeps a table when it already has exactly the rows wanted, else rebuilds it; then a
    /// VACUUM (FREEZE, ANALYZE), as pgbench vacuums before a run: a new table's first scans would otherwise set
    /// hint bits and dirty every page, and autovacuum would start on it mid-capture, so the first seconds of the
    /// capture (the uninstrumented slice among them) would run slower than the rest. On a reused table whose pages
    /// are all frozen the VACUUM returns at once.
    /// </summary>
    private static string[] EnsureTable(string table, long rows, string selectTemplate)
    {
        var select = string.Format(CultureInfo.InvariantCulture, selectTemplate, rows);
        return [$"""
            DO $probe$
            BEGIN
              IF to_regclass('{table}') IS NOT NULL THEN
                IF (SELECT count(*) FROM {table}) = {rows} THEN
                  RETURN;
                END IF;
                DROP TABLE {table};
              END IF;
              CREATE TABLE {table} AS {select};
            END
            $probe$
            """, $"VACUUM (FREEZE, ANALYZE) {table}"];
    }
}
