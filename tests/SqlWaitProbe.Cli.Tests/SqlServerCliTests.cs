using System.Diagnostics;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>The SQL Server paths of <c>probe capture</c> and <c>probe check</c>, run as a user runs them (a child process).</summary>
public sealed class SqlServerCliTests
{
    private static (int Exit, string Out, string Err) Probe(params string[] args) => ProbeWith(null, args);

    private static (int Exit, string Out, string Err) ProbeWith(IReadOnlyDictionary<string, string>? environment, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "probe.dll"));
        foreach (var a in args)
        {
            start.ArgumentList.Add(a);
        }

        start.Environment["CI"] = "1";
        foreach (var (k, v) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[k] = v;
        }

        using var process = Process.Start(start)!;
        process.StandardInput.Close();
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        Assert.True(process.WaitForExit(120_000), "probe did not finish in 2 minutes");
        return (process.ExitCode, stdout.Result, stderr.Result);
    }

    [Fact]
    public void Attach_dry_run_shows_the_page_xe_session_and_the_server_reads_and_nothing_destructive()
    {
        var (exit, output, _) = Probe("capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--duration", "10s", "--xe", "pages", "--dry-run");
        Assert.Equal(0, exit);
        Assert.Contains("CREATE EVENT SESSION [probe_", output);
        Assert.Contains("ADD EVENT sqlos.page_allocated", output);
        Assert.Contains("ADD EVENT sqlos.page_freed", output);
        Assert.Contains("ADD TARGET package0.histogram", output);
        Assert.Contains("FROM sys.dm_os_wait_stats", output);
        Assert.Contains("FROM sys.dm_os_latch_stats", output);
        Assert.Contains("FROM sys.dm_os_spinlock_stats", output);
        Assert.Contains("FROM sys.dm_xe_object_columns", output);
        var callGraph = SqlWaitProbe.Linux.PerfRecord.PerfCallGraph.Choose(null, 10, Environment.ProcessorCount, 499, 1024)!;
        Assert.Contains($"perf record -a -e cpu-clock {string.Join(' ', SqlWaitProbe.Linux.PerfRecord.PerfCallGraph.RecordArguments(callGraph.Mode))} -F 499", output);
        Assert.Contains($"call graph: {callGraph.Mode} ({callGraph.Reason})", output);
        // The configuration a comparison is labelled by, read-only; TRACESTATUS is the one DBCC, and it changes nothing.
        Assert.Contains("SELECT i.sql_memory_model_desc FROM sys.dm_os_sys_info AS i;", output);
        Assert.Contains("FROM sys.resource_governor_resource_pools AS p", output);
        var withoutTraceStatus = output.Replace("DBCC TRACESTATUS(-1) WITH NO_INFOMSGS;", "", StringComparison.Ordinal);
        Assert.NotEqual(output, withoutTraceStatus);
        foreach (var destructive in new[] { "DBCC", "CREATE DATABASE", "DROP TABLE", "CREATE TABLE", "TRUNCATE", "INSERT" })
        {
            Assert.DoesNotContain(destructive, withoutTraceStatus, StringComparison.OrdinalIgnoreCase);
        }
    }

    [Fact]
    public void Workload_dry_run_reads_session_waits_of_the_workload_sessions()
    {
        var (exit, output, _) = Probe("capture", "--engine", "sqlserver", "--server", "localhost", "--workload", "hashbytes", "--threads", "96", "--dry-run");
        Assert.Equal(0, exit);
        Assert.Contains("FROM sys.dm_exec_session_wait_stats", output);
        Assert.Contains("SELECT MAX(HASHBYTES('SHA2_256', h.ID))", output);
        Assert.Contains("phase load: 96 session(s)", output);
        Assert.Contains("SELECT CONVERT(int, @@SPID)", output);
        Assert.DoesNotContain("DBCC", output.Replace("DBCC TRACESTATUS(-1) WITH NO_INFOMSGS;", "", StringComparison.Ordinal));
    }

    [Fact]
    public void Latch_dry_run_states_the_cost_of_a_stack_walk_per_latch_and_the_cap_that_bounds_it()
    {
        var (exit, output, _) = Probe("capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--duration", "10s", "--xe", "latches", "--dry-run");
        Assert.Equal(0, exit);
        Assert.Contains("ADD EVENT sqlserver.latch_acquired", output);
        Assert.Contains("package0.counter <= ", output);
        Assert.Matches(@"Cost: every latch_acquired of the watched sessions walks a call stack \(microseconds each, on the latching thread\), at most [\d,]+ walks per phase \(package0\.counter\), after which the event takes no action", output);
    }

    [Fact]
    public void Off_cpu_dry_run_shows_the_etw_keywords_and_the_worker_thread_query()
    {
        var (exit, output, _) = Probe("capture", "--engine", "sqlserver", "--server", "localhost", "--workload", "hashbytes", "--threads", "8", "--offcpu", "on", "--dry-run");
        Assert.Equal(0, exit);
        Assert.Contains("ETW kernel keywords Profile, ImageLoad, Process, Thread, ContextSwitch, Dispatcher (stacks on Profile, ContextSwitch)", output);
        Assert.Contains("JOIN sys.dm_os_threads AS th", output);
        if (!OperatingSystem.IsWindows())
        {
            Assert.Contains("off-CPU stacks: not run (off-CPU stacks of sqlservr need Windows", output);
        }
    }

    [Fact]
    public void Reset_server_state_is_refused_in_attach_mode_with_exit_2()
    {
        var (exit, _, error) = Probe("capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--reset-server-state", "--dry-run");
        Assert.Equal(2, exit);
        Assert.Contains("refused in attach mode", error);
        Assert.Single(error.Trim().Split('\n'));
    }

    [Fact]
    public void Cpu_none_and_bad_xe_values_are_honoured()
    {
        var (exit, output, _) = Probe("capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--cpu", "none", "--dry-run");
        Assert.Equal(0, exit);
        Assert.Contains("CPU stacks: none (--cpu none)", output);
        Assert.DoesNotContain("CREATE EVENT SESSION", output);
        var bad = Probe("capture", "--engine", "sqlserver", "--server", "localhost", "--attach", "--xe", "locks", "--dry-run");
        Assert.Equal(2, bad.Exit);
        Assert.Contains("--xe 'locks' is not known", bad.Err);
    }

    [Fact]
    public void A_missing_password_variable_is_bad_input_and_passwords_are_never_echoed()
    {
        var missing = Probe("capture", "--engine", "sqlserver", "--server", "localhost", "--user", "probe", "--password-env", "SQLWAITPROBE_NO_SUCH_VAR", "--attach", "--dry-run");
        Assert.Equal(2, missing.Exit);
        Assert.Contains("SQLWAITPROBE_NO_SUCH_VAR is not set", missing.Err);

        var inline = Probe("capture", "--engine", "sqlserver", "--server", "Server=localhost;User ID=sa;Password=Hunter2!", "--attach", "--dry-run");
        Assert.Equal(0, inline.Exit);
        Assert.DoesNotContain("Hunter2!", inline.Out + inline.Err);
    }

    [Fact]
    public void A_failed_capture_keeps_secrets_out_of_manifest_log_and_stderr()
    {
        var folder = Path.Combine(TestData.TempFolder(), "bundle");
        var (exit, output, error) = ProbeWith(new Dictionary<string, string> { ["PROBE_TEST_PW"] = "Env-Secret-9" },
            "capture", "--engine", "sqlserver", "--server", "Server=127.0.0.1,1;User ID=sa;Password=Hunter2!;Connect Timeout=2",
            "--attach", "--duration", "1s", "--no-analyze", "-o", folder);
        Assert.Equal(1, exit);
        Assert.Contains("Cannot reach SQL Server", error);
        var manifest = File.ReadAllText(Path.Combine(folder, "manifest.json"));
        Assert.Contains("\"status\": \"failed\"", manifest);
        Assert.Contains("Password=***", manifest);
        foreach (var text in new[] { manifest, File.ReadAllText(Path.Combine(folder, "capture.log")), output, error })
        {
            Assert.DoesNotContain("Hunter2!", text);
        }

        var withEnv = ProbeWith(new Dictionary<string, string> { ["PROBE_TEST_PW"] = "Env-Secret-9" },
            "capture", "--engine", "sqlserver", "--server", "Server=127.0.0.1,1;Connect Timeout=2", "--user", "sa", "--password-env", "PROBE_TEST_PW",
            "--attach", "--duration", "1s", "--no-analyze", "-o", folder + "2");
        Assert.Equal(1, withEnv.Exit);
        Assert.DoesNotContain("Env-Secret-9", File.ReadAllText(Path.Combine(folder + "2", "manifest.json")) + File.ReadAllText(Path.Combine(folder + "2", "capture.log")) + withEnv.Err);
    }

    [Fact]
    public void Check_dry_run_prints_the_permission_queries()
    {
        var (exit, output, _) = Probe("check", "--engine", "sqlserver", "--server", "localhost", "--dry-run");
        Assert.Equal(0, exit);
        Assert.Contains("HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER STATE')", output);
        Assert.Contains("HAS_PERMS_BY_NAME(NULL, NULL, N'ALTER ANY EVENT SESSION')", output);
        Assert.Contains("N'VIEW SERVER PERFORMANCE STATE'", output);
        Assert.Contains("fn_my_permissions(NULL, 'SERVER')", output);
        Assert.Contains("SERVERPROPERTY('ProductMajorVersion')", output);
    }

    [Fact]
    public void Check_of_an_unreachable_server_is_one_line_and_exit_1()
    {
        var (exit, _, error) = Probe("check", "--engine", "sqlserver", "--server", "Server=127.0.0.1,1;Connect Timeout=2");
        Assert.Equal(1, exit);
        Assert.StartsWith("probe: Cannot reach SQL Server '127.0.0.1,1'", error);
        Assert.Single(error.Trim().Split('\n'));
    }

    [Theory]
    [InlineData("--dry-run")]
    [InlineData("--no-analyze")]
    public void Etw_off_windows_is_refused_with_exit_2_before_connecting(string mode)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        var (exit, _, err) = Probe("capture", "--engine", "sqlserver", "--server", "Server=127.0.0.1,1;Connect Timeout=2", "--workload", "hashbytes", "--threads", "4", "--cpu", "etw", mode);

        Assert.Equal(2, exit);
        Assert.Equal("probe: ETW CPU sampling needs Windows; on Linux use --cpu perf", err.Trim());
    }
}
