using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe experiment</c> on the embedded PostgreSQL: the README's work_mem experiment, whose answer is known by
/// construction (a 64kB sort of 600,000 rows spills to temp files, a 256MB one never does), and bad experiment files.
/// Their answers do not depend on how busy the machine is, so they run beside other tests; the run-queue experiment,
/// whose answer is a share of CPU time, runs alone (<see cref="ExperimentBackgroundLoadTests"/>).
/// </summary>
public sealed class ExperimentCommandTests
{
    private static string Sample(string name) => Path.Combine(TestData.RepoRoot, "samples", "experiments", name);

    [Fact]
    public async Task The_work_mem_experiment_records_each_variants_setting_and_its_comparison_names_the_spill()
    {
        var dir = Path.Combine(TestData.TempFolder(), "experiment");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(4), "experiment", Sample("postgres-work-mem.yaml"), "-o", dir);
        Assert.True(exit == 0, stderr + stdout);
        Assert.Contains("small: complete; ran with work_mem=64kB", stdout, StringComparison.Ordinal);
        Assert.Contains("large: complete; ran with work_mem=256MB", stdout, StringComparison.Ordinal);
        // The screen lists the top findings only; the wait finding's rank among them varies from run to run, so it is
        // checked in comparison.json below, and the screen must carry the spill (the answer) instead.

        // Each variant is an ordinary bundle whose manifest says which variant it is and what the server read back.
        var small = CaptureBundle.ReadManifest(Path.Combine(dir, "small", "manifest.json"));
        var large = CaptureBundle.ReadManifest(Path.Combine(dir, "large", "manifest.json"));
        Assert.Equal(BundleStatus.Complete, small.Status);
        Assert.Equal("small", small.Experiment!.Variant);
        Assert.Equal("64kB", small.Experiment.Requested["work_mem"]);
        Assert.Equal("64kB", small.Experiment.Effective["work_mem"]);
        Assert.Equal("256MB", large.Experiment!.Effective["work_mem"]);
        Assert.Equal(16, small.Phases.Single().Executions);
        Assert.Equal(16, large.Phases.Single().Executions);

        using var comparison = JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "comparison", "comparison.json")));
        var root = comparison.RootElement;
        var workMem = root.GetProperty("configurationDifferences").EnumerateArray().Single(d => d.GetProperty("setting").GetString() == "work_mem");
        Assert.Equal(["64kB", "256MB"], workMem.GetProperty("values").EnumerateArray().Select(v => v.GetString()));

        // The answer: only the small variant waits on temp-file writes; the large one never spills.
        var waits = root.GetProperty("phases")[0].GetProperty("waitsMsPerExecution").EnumerateArray()
            .FirstOrDefault(w => w.GetProperty("name").GetString() == "IO:BufFileWrite");
        Assert.Equal(JsonValueKind.Object, waits.ValueKind);
        var values = waits.GetProperty("values").EnumerateArray().Select(v => v.ValueKind == JsonValueKind.Number ? v.GetDouble() : 0).ToArray();
        Assert.True(values[0] > 0, $"small waits on IO:BufFileWrite: {values[0]} ms per execution");
        Assert.Equal(0, values[1]);
        Assert.Contains(root.GetProperty("findings").EnumerateArray(), f => f.GetProperty("title").GetString()!.Contains("IO:BufFileWrite", StringComparison.Ordinal));

        // pg_stat_database's temp counters say the same: the small variant writes temp files in every execution, the large none.
        var spill = root.GetProperty("findings").EnumerateArray().Single(f => f.GetProperty("id").GetString() == "compare-temp-spill");
        Assert.Contains("small spills to temporary files", spill.GetProperty("title").GetString(), StringComparison.Ordinal);
        Assert.Contains("against none to speak of in large", spill.GetProperty("title").GetString(), StringComparison.Ordinal);
        Assert.Contains("small spills to temporary files", stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_temp_file_figure_per_execution_is_the_same_in_repeated_runs_of_a_phase_shorter_than_a_second()
    {
        // Known answer: the same external sort of 100,000 rows writes the same temp blocks in every execution. A phase
        // of three executions lasts well under a second, in which PostgreSQL may not publish pg_stat_database's temp
        // counters at all, so the figure must come from the statement's own counter.
        var folder = TestData.TempFolder();
        var file = Path.Combine(folder, "spill.yaml");
        File.WriteAllText(file, """
            engine: postgres
            setup: CREATE TABLE sort_few AS SELECT g AS id, md5(g::text) AS pad FROM generate_series(1, 100000) g;
            teardown: DROP TABLE sort_few;
            workload:
              sql: SELECT count(*) FROM (SELECT pad FROM sort_few ORDER BY pad OFFSET 1) s
            threads: [1]
            iterations: 3
            variants:
              - name: small
                settings: {work_mem: 64kB}
              - name: small-again
                settings: {work_mem: 64kB}
              - name: large
                settings: {work_mem: 64MB}
            """);
        var dir = Path.Combine(folder, "out");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(4), "experiment", file, "-o", dir);
        Assert.True(exit == 0, stderr + stdout);

        using var comparison = JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "comparison", "comparison.json")));
        var root = comparison.RootElement;
        var row = root.GetProperty("phases")[0].GetProperty("throughput").EnumerateArray().Single(r => r.GetProperty("name").GetString() == "temporary files written MB/exec");
        var mb = row.GetProperty("values").EnumerateArray().Select(v => v.GetDouble()).ToArray();
        Assert.True(mb[0] > 1, $"small writes {mb[0]} MB of temp files per execution");
        Assert.True(Math.Abs(mb[1] - mb[0]) <= 0.02 * mb[0], $"the same sort in two runs: {mb[0]} and {mb[1]} MB per execution");
        Assert.Equal(0, mb[2]);
        Assert.Contains("pg_stat_statements temp_blks_written", row.GetProperty("source").GetString(), StringComparison.Ordinal);

        // The finding prints the same figure the table holds.
        var spill = root.GetProperty("findings").EnumerateArray().Single(f => f.GetProperty("id").GetString() == "compare-temp-spill");
        Assert.Contains($"small spills to temporary files: {SqlWaitProbe.Core.Text.Figures.F(mb[0])} MB per execution against none to speak of in large", spill.GetProperty("title").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_parallel_scan_experiment_says_how_many_workers_each_variant_used_and_counts_their_cpu_per_execution()
    {
        // Known answer: the same scan at max_parallel_workers_per_gather 0 and 2. With 2, two worker processes scan
        // beside the session in every execution, so the session's own CPU falls while the scan's CPU, the workers'
        // included, is at least what the serial scan took (on 2 CPUs, three processes share them).
        var dir = Path.Combine(TestData.TempFolder(), "experiment");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(4), "experiment", Sample("postgres-parallel-scan.yaml"), "-o", dir);
        Assert.True(exit == 0, stderr + stdout);

        using var comparison = JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "comparison", "comparison.json")));
        var root = comparison.RootElement;
        var phase = root.GetProperty("phases")[0];
        double[] Row(string table, string name) => phase.GetProperty(table).EnumerateArray().Single(r => r.GetProperty("name").GetString() == name)
            .GetProperty("values").EnumerateArray().Select(v => v.ValueKind == JsonValueKind.Number ? v.GetDouble() : 0).ToArray();
        var own = Row("ledgerMsPerExecution", "CPU");
        var workers = Row("ledgerMsPerExecution", "parallel workers' CPU (beside session time)");
        var all = Row("ledgerMsPerExecution", "CPU with parallel workers");
        Assert.Equal(0, workers[0]);
        Assert.Equal(own[0], all[0], 6);
        Assert.Equal(own[1] + workers[1], all[1], 6);
        Assert.True(workers[1] >= 0.25 * all[0], $"the workers' CPU per execution {workers[1]:0.0} ms against the serial scan's {all[0]:0.0} ms");
        // The session alone holds about a third of the scan; with its workers about all of it. The same work's CPU
        // varies between variants on a busy machine (137 to 181 ms per serial execution measured), hence the margin.
        Assert.True(all[1] >= 0.6 * all[0], $"the parallel scan's CPU per execution {all[1]:0.0} ms (session {own[1]:0.0} + workers {workers[1]:0.0}) against the serial scan's {all[0]:0.0} ms");
        // Processes seen, not launched: a worker that starts after its leader has scanned everything exits within a
        // poll, its CPU a few ms of start-up (the plan's Workers Launched, below, is the count).
        var perExecution = Row("throughput", "parallel worker processes seen per execution");
        Assert.Equal(0, perExecution[0]);
        Assert.InRange(perExecution[1], 0.5, 2.0);

        // The plans say how many each variant launched, and the finding says it with the CPU the workers added.
        var scan = root.GetProperty("statements").EnumerateArray().First(s => s.GetProperty("text").GetString()!.Contains("scan_me", StringComparison.Ordinal));
        Assert.Equal(2, scan.GetProperty("captures")[1].GetProperty("workersLaunched").GetInt32());
        var finding = root.GetProperty("findings").EnumerateArray().Single(f => f.GetProperty("id").GetString() == "compare-parallel-workers");
        Assert.StartsWith($"In load, parallel-2 runs 2 parallel worker(s) per execution against none in serial (Workers Launched in the plans): CPU per execution, the workers' included, is {SqlWaitProbe.Core.Text.Figures.F(all[1])} ms against {SqlWaitProbe.Core.Text.Figures.F(all[0])} ms",
            finding.GetProperty("title").GetString(), StringComparison.Ordinal);

        // Each worker is led by the session's backend, and its CPU samples count as the workload's.
        var backend = File.ReadLines(Path.Combine(dir, "parallel-2", "phases", "load", "sessions.csv")).Skip(1).Single().Split(',')[1];
        var rows = File.ReadLines(Path.Combine(dir, "parallel-2", "phases", "load", "parallel_workers.csv")).Skip(1).Select(l => l.Split(',')).ToArray();
        Assert.NotEmpty(rows);
        Assert.All(rows, r => Assert.Equal(backend, r[2]));
        var workload = File.ReadLines(Path.Combine(dir, "parallel-2", "phases", "load", "cpu", "processes.csv")).Skip(1).Select(l => l.Split(',')[0]).ToHashSet();
        Assert.Contains(rows, r => workload.Contains(r[1]));
    }

    [Fact]
    public async Task A_warm_up_runs_unmeasured_before_the_phase_and_a_total_the_sessions_do_not_divide_runs_whole()
    {
        var folder = TestData.TempFolder();
        var file = Path.Combine(folder, "split.yaml");
        File.WriteAllText(file, """
            engine: postgres
            setup: CREATE TABLE few AS SELECT g FROM generate_series(1, 1000) g;
            teardown: DROP TABLE few;
            workload:
              sql: SELECT count(*) FROM few
            threads: [2]
            iterations:
              total: 7
            warmup: 3
            variants:
              - name: only
                settings: {work_mem: 1MB}
            """);
        var dir = Path.Combine(folder, "out");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(3), "experiment", file, "-o", dir);
        Assert.True(exit == 0, stderr + stdout);

        // Said before it runs, in the progress and the summary: 7 over 2 sessions is 4 and 3, not refused, not rounded.
        const string split = "7 in all, not divisible by 2 sessions: 1 session runs 4, 1 runs 3";
        Assert.Contains(split, stdout, StringComparison.Ordinal);
        Assert.Contains(split, stderr, StringComparison.Ordinal);
        Assert.Contains("warm-up: 3 executions on 1 session", stderr, StringComparison.Ordinal);

        var manifest = CaptureBundle.ReadManifest(Path.Combine(dir, "only", "manifest.json"));
        Assert.Equal(7, manifest.Phases.Single().Executions);
        Assert.Equal(3, manifest.Warmup!.Requested);
        Assert.Equal(3, manifest.Warmup.Executions);
        Assert.Equal(0, manifest.Warmup.Errors);

        // The warm-up's executions are in no phase: the phase's executions file holds 4 of session 1 and 3 of session 2.
        var perSession = File.ReadLines(Path.Combine(dir, "only", "phases", "load", "executions.csv")).Skip(1)
            .GroupBy(l => l.Split(',')[0]).ToDictionary(g => g.Key, g => g.Count());
        Assert.Equal(new Dictionary<string, int> { ["1"] = 4, ["2"] = 3 }, perSession);
    }

    [Theory]
    [InlineData("variants:\n  - name: a\n    settings:\n      work_mme: 64kB\n", 6, "unknown setting 'work_mme'")]
    [InlineData("variants:\n  - name: a\n  - name: a\n", 5, "two variants are named 'a'")]
    [InlineData("variants: []\n", 3, "the variant list is empty")]
    [InlineData("variantz:\n  - name: a\n", 3, "unknown key 'variantz'")]
    [InlineData("variants:\n  - name: a\n    settings:\n      shared_buffers: 1GB\nserver: Host=db1;Username=me\n", 6, "only the embedded server")]
    [InlineData("password: hunter2\nvariants:\n  - name: a\n", 3, "never holds a password: set it in an environment variable and name that with password_env:")]
    [InlineData("server: \"Host=db1;Password=hunter2\"\nvariants:\n  - name: a\n", 3, "server holds a password")]
    [InlineData("encrypt: true\nvariants:\n  - name: a\n", 3, "encrypt applies to sqlserver")]
    [InlineData("warmup: 2000000\nvariants:\n  - name: a\n", 3, "warmup must be 0 to 1000000 executions")]
    public async Task A_bad_experiment_file_is_one_line_and_exit_2_before_anything_is_made(string tail, int? line, string says)
    {
        var folder = TestData.TempFolder();
        var file = Path.Combine(folder, "bad.yaml");
        File.WriteAllText(file, "engine: postgres\nworkload: hashbytes\n" + tail);
        var output = Path.Combine(folder, "out");
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("experiment", file, "-o", output);
        Assert.Equal(2, exit);
        Assert.Equal("", stdout);
        var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Single(lines);
        Assert.StartsWith($"probe: {file}{(line is null ? ":" : $":{line}:")}", lines[0], StringComparison.Ordinal);
        Assert.Contains(says, lines[0], StringComparison.Ordinal);
        Assert.False(Directory.Exists(output), "nothing is made for a bad file");
        Assert.DoesNotContain("hunter2", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_setup_script_that_fails_on_the_server_is_one_line_naming_its_statement_and_line_and_exit_2()
    {
        var folder = TestData.TempFolder();
        var file = Path.Combine(folder, "failing.yaml");
        File.WriteAllText(file, """
            engine: postgres
            setup: |
              CREATE TABLE few (g int);
              INSERT INTO few SELECT 1 / 0;
            workload:
              sql: SELECT count(*) FROM few
            variants:
              - name: only
            """);
        var output = Path.Combine(folder, "out");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2), "experiment", file, "-o", output);
        Assert.True(exit == 2, $"exit {exit}: {stderr}");
        var error = Assert.Single(stderr.Split('\n'), l => l.StartsWith("probe: ", StringComparison.Ordinal));
        Assert.StartsWith($"probe: {file}:4: ", error, StringComparison.Ordinal);
        Assert.Contains("setup failed at statement 2: division by zero", error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", stderr, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(output, "only")), "no variant ran");
    }

    public static TheoryData<string> SqlServerSamples() =>
        [.. Directory.EnumerateFiles(Path.Combine(TestData.RepoRoot, "samples", "experiments"), "sqlserver-*.yaml").Select(f => Path.GetFileName(f)!).Order(StringComparer.Ordinal)];

    [Theory]
    [MemberData(nameof(SqlServerSamples))]
    public async Task Each_sql_server_sample_dry_runs_its_variants_and_records_trace_flag_834_without_applying_it(string sample)
    {
        var output = Path.Combine(TestData.TempFolder(), "out");
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("experiment", Sample(sample), "-o", output, "--dry-run");
        Assert.True(exit == 0, stderr);
        Assert.Contains("-- capture: probe capture --engine sqlserver --server '<the server>'", stdout, StringComparison.Ordinal);
        Assert.DoesNotContain("TRACEON(834", stdout, StringComparison.Ordinal);

        // Each variant reads the startup-only settings it records, before its capture; the T-SQL is bound to the catalogs.
        var variants = stdout.Split("-- variant ", StringSplitOptions.None).Skip(1).ToArray();
        Assert.NotEmpty(variants);
        foreach (var variant in variants)
        {
            var capture = variant.IndexOf("-- capture:", StringComparison.Ordinal);
            var flag = variant.IndexOf("DBCC TRACESTATUS(834, -1) WITH NO_INFOMSGS; -- recorded: trace_flag.834, read only", StringComparison.Ordinal);
            var memory = variant.IndexOf("SELECT sql_memory_model_desc AS effective, sql_memory_model_desc AS stored FROM sys.dm_os_sys_info; -- recorded: memory_model, read only", StringComparison.Ordinal);
            Assert.True(flag >= 0 && flag < capture, $"trace flag 834 read before the capture in:\n{variant}");
            Assert.True(memory >= 0 && memory < capture, $"memory model read before the capture in:\n{variant}");
        }
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task The_tf3933_sample_switches_the_flag_per_variant_restores_it_and_connects_encrypted()
    {
        var output = Path.Combine(TestData.TempFolder(), "out");
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("experiment", Sample("sqlserver-tf3933.yaml"), "-o", output, "--dry-run");
        Assert.True(exit == 0, stderr);
        string[] inOrder =
        [
            "-- variant 1/2: fair-latch", "DBCC TRACEOFF(3933, -1)", "--workload parallel-insert --threads 1,8 --iterations 3 --warmup 1", "--encrypt --trust-server-certificate",
            "DBCC TRACEON(3933, -1) WITH NO_INFOMSGS; -- or DBCC TRACEOFF, as it was before",
            "-- variant 2/2: unfair-latch", "DBCC TRACEON(3933, -1)", "--encrypt --trust-server-certificate", "-- restore",
        ];
        var at = 0;
        foreach (var expected in inOrder)
        {
            var found = stdout.IndexOf(expected, at, StringComparison.Ordinal);
            Assert.True(found >= 0, $"'{expected}' after position {at} in:\n{stdout}");
            at = found + expected.Length;
        }
    }

    [Fact]
    public async Task The_cci_sample_splits_576_tables_over_each_session_count()
    {
        var output = Path.Combine(TestData.TempFolder(), "out");
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("experiment", Sample("sqlserver-cci-sessions.yaml"), "-o", output, "--dry-run");
        Assert.True(exit == 0, stderr);
        Assert.Contains("-- executions of phase 96 (96 session(s)): 576 in all, 6 per session", stdout, StringComparison.Ordinal);
        Assert.Contains("-- executions of phase 32 (32 session(s)): 576 in all, 18 per session", stdout, StringComparison.Ordinal);
        Assert.Contains("--workload cci-etl --threads 1,8,32,96 --iterations-total 576", stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_dry_run_prints_every_statement_in_order_with_its_restore_and_connects_to_nothing()
    {
        var folder = TestData.TempFolder();
        var file = Path.Combine(folder, "exp.yaml");
        File.WriteAllText(file, """
            engine: postgres
            setup: CREATE TABLE t (id int); INSERT INTO t VALUES (1);
            teardown: DROP TABLE t;
            workload:
              sql: SELECT count(*) FROM t
            iterations: 3
            variants:
              - name: slow-checkpoints
                settings:
                  checkpoint_timeout: 30min
                  jit: off
            """);
        var output = Path.Combine(folder, "out");
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("experiment", file, "-o", output, "--dry-run");
        Assert.True(exit == 0, stderr);
        string[] inOrder =
        [
            "-- experiment exp.yaml: engine postgres, an embedded PostgreSQL started for the experiment, 1 variant(s)",
            "-- setup (2 statement(s), from exp.yaml line 2):",
            "CREATE TABLE t (id int);",
            "INSERT INTO t VALUES (1);",
            "SELECT current_setting('checkpoint_timeout'); -- read before",
            "ALTER SYSTEM SET checkpoint_timeout = '30min';",
            "SELECT pg_reload_conf();",
            "-- jit = off: on every workload session as it starts (SET jit = 'off')",
            "-- capture: probe capture --engine postgres --server '<the embedded server>;Options=-c jit=off' --sql",
            "ALTER SYSTEM SET checkpoint_timeout = <its postgresql.auto.conf entry read before; ALTER SYSTEM RESET checkpoint_timeout when it had none>;",
            "DROP TABLE t;",
        ];
        var at = 0;
        foreach (var expected in inOrder)
        {
            var found = stdout.IndexOf(expected, at, StringComparison.Ordinal);
            Assert.True(found >= 0, $"'{expected}' after position {at} in:\n{stdout}");
            at = found + expected.Length;
        }

        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task The_sql_server_sample_dry_runs_with_every_apply_followed_by_its_restore()
    {
        var output = Path.Combine(TestData.TempFolder(), "out");
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("experiment", Sample("sqlserver-rg-maxdop.yaml"), "-o", output, "--dry-run");
        Assert.True(exit == 0, stderr);
        string[] inOrder =
        [
            "CREATE TABLE dbo.probe_rg_big", "GO",
            "-- variant 2/3: rg-maxdop-1", "ALTER WORKLOAD GROUP [default] WITH (MAX_DOP = 1);", "ALTER RESOURCE GOVERNOR RECONFIGURE;",
            "-- capture: probe capture --engine sqlserver", "--threads 1,8 --iterations 10",
            "ALTER WORKLOAD GROUP [default] WITH (MAX_DOP = <value read before>);",
            "-- variant 3/3: server-maxdop-1", "EXEC sys.sp_configure N'max degree of parallelism', 1;", "RECONFIGURE;",
            "EXEC sys.sp_configure N'max degree of parallelism', <value read before>;",
            "DROP TABLE dbo.probe_rg_big;",
        ];
        var at = 0;
        foreach (var expected in inOrder)
        {
            var found = stdout.IndexOf(expected, at, StringComparison.Ordinal);
            Assert.True(found >= 0, $"'{expected}' after position {at} in:\n{stdout}");
            at = found + expected.Length;
        }

        Assert.DoesNotContain(";;", stdout, StringComparison.Ordinal);
    }
}
