using System.Diagnostics;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Known-answer attach captures of a real PostgreSQL with outside clients (pgbench), as a DBA would attach to a
/// production server: what the report, findings.json and exit code say for each case of issues 30 and 31.
/// </summary>
[Collection(KnownCasesCollection.Name)]
public sealed class AttachCasesTests : IClassFixture<AttachCasesFixture>
{
    private readonly AttachCasesFixture _pg;

    private string _summary = "";

    public AttachCasesTests(AttachCasesFixture pg) => _pg = pg;

    [Fact]
    public async Task Count_then_pg_sleep_closes_the_ledger_within_3_percent_and_pg_sleep_is_an_intended_wait_not_an_alarm()
    {
        var (exit, stderr, findings, ledger, dir) = await CaptureAsync("count_sleep",
            "SELECT count(*) FROM generate_series(1, 1500000);\nSELECT pg_sleep(0.3);\n", clients: 2);
        Assert.True(exit == 0, stderr);
        var session = ledger.GetProperty("sessionSeconds").GetDouble();
        Assert.InRange(session, 4, 7.5);
        var remainder = ledger.GetProperty("unaccountedCauses").EnumerateArray().Last();
        Assert.InRange(remainder.GetProperty("seconds").GetDouble() / session, -0.03, 0.03);
        var sleep = ledger.GetProperty("waits").EnumerateArray().Single(w => w.GetProperty("type").GetString() == "Timeout:PgSleep");
        Assert.Equal("intended", sleep.GetProperty("class").GetString());
        // How much of the time the sleeps take depends on how long the count waits for a CPU on a busy machine.
        Assert.InRange(sleep.GetProperty("seconds").GetDouble() / session, 0.1, 0.9);
        Assert.DoesNotContain(findings, f => f.Title.Contains("PgSleep", StringComparison.Ordinal) && f.Severity != "info");
        Assert.Contains(findings, f => f.Id == "idle-or-intended-waits" && f.Severity == "info" && f.Title.Contains("Timeout:PgSleep", StringComparison.Ordinal));

        // Each statement's row is measured as the ledger is: the sleep is its wait and not also the CPU of the count
        // before it, and neither row needs a negative remainder to close.
        using (var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "report", "findings.json"))))
        {
            var rows = json.RootElement.GetProperty("statements").EnumerateArray().ToArray();
            var sampled = rows.Sum(r => r.GetProperty("sessionMs").GetDouble());
            // The statements hold the window's session time, not what the sampler saw before and after it (it ran a
            // second either side): the samples' time and the states read every 10 ms differ by a few percent at most.
            Assert.InRange(sampled, 0.9 * session * 1000, 1.1 * session * 1000);
            Assert.All(rows, r => Assert.InRange(r.GetProperty("unaccountedMs").GetDouble() / sampled, -0.03, 0.10));
            var sleepRow = rows.Single(r => r.GetProperty("text").GetString()!.Contains("pg_sleep", StringComparison.Ordinal));
            Assert.InRange(sleepRow.GetProperty("cpuMs").GetDouble(), 0, 0.03 * sleepRow.GetProperty("sessionMs").GetDouble());
        }

        // The summary shows the ledger and the first findings in place of a workload table of zeros.
        Assert.Matches(@"attach: session time [\d.]+ s = waits [\d.]+ s \+ CPU [\d.]+ s", _summary);
        Assert.Contains("verdict per phase, then findings:", _summary);
        Assert.DoesNotContain("exec/s", _summary);
    }

    [Fact]
    public async Task A_lock_convoy_still_raises_its_lock_finding()
    {
        var (exit, stderr, findings, _, _) = await CaptureAsync("convoy",
            "BEGIN;\nUPDATE counters SET v = v + 1 WHERE id = 1;\nSELECT pg_sleep(0.02);\nCOMMIT;\n", clients: 4);
        Assert.True(exit == 0, stderr);
        var lockFinding = Assert.Single(findings, f => f.Id == "dominant-wait");
        Assert.Contains("Lock:transactionid", lockFinding.Title);
        Assert.NotEqual("info", lockFinding.Severity);
    }

    [Fact]
    public async Task Clients_idle_in_transaction_behind_a_blocker_are_named_with_their_idle_in_transaction_time()
    {
        var (exit, stderr, findings, ledger, dir) = await CaptureAsync("idle_tx",
            "BEGIN;\nUPDATE counters SET v = v + 1 WHERE id = 2;\n\\sleep 150 ms\nCOMMIT;\n", clients: 3);
        Assert.True(exit == 0, stderr);
        var attach = ledger.GetProperty("attach");
        Assert.True(attach.GetProperty("idleInTransactionSeconds").GetDouble() > 0.5, attach.ToString());
        var client = Assert.Single(findings, f => f.Id == "client-waits");
        Assert.Contains("idle in transaction", client.Title);
        Assert.Matches(@"session \d+ \(backend pid \d+\)", client.Title);
        var blocks = Assert.Single(findings, f => f.Id == "idle-transaction-blocks");
        Assert.Matches(@"on locks held by session \d+ \(backend pid \d+\)", blocks.Title);
        Assert.DoesNotContain(findings, f => f.Id == "waits-explain-little" && f.Severity != "info");
        var report = File.ReadAllText(Path.Combine(dir, "report", "report.md"));
        Assert.DoesNotContain("CPU stacks not captured", report);

        // The embedded server has no auto_explain and the capture had no --explain: Data quality says there are no plans and how to get them.
        Assert.Contains("pg-auto-explain", report);
        Assert.Contains("auto_explain is not loaded on the server and attach mode never changes server settings", report);
    }

    [Fact]
    public async Task A_role_without_pg_monitor_is_refused_naming_the_hidden_sessions_and_the_grant()
    {
        using var load = _pg.StartPgbench("hidden_load", "SELECT pg_sleep(0.05);\n", 2, user: AttachCasesFixture.AppRole);
        try
        {
            await _pg.WaitForAsync("hidden_load");
            var folder = TestData.TempFolder();
            var dir = Path.Combine(folder, "bundle");
            var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2),
                "capture", "--engine", "postgres", "--server", _pg.ConnectionString(AttachCasesFixture.UnprivilegedRole), "--attach", "--duration", "3s", "--application", "hidden_load", "-o", dir);
            Assert.True(exit == 1, stderr);
            Assert.Contains($"role {AttachCasesFixture.UnprivilegedRole} cannot see other roles' sessions", stderr);
            Assert.Contains("application hidden_load", stderr);
            Assert.Contains(AttachCasesFixture.AppRole, stderr);
            Assert.Contains($"GRANT pg_monitor TO {AttachCasesFixture.UnprivilegedRole};", stderr);
            Assert.DoesNotContain("attached:", stderr);

            // probe check says the same before any capture.
            var (checkExit, checkOut, checkErr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "check", "--engine", "postgres", "--server", _pg.ConnectionString(AttachCasesFixture.UnprivilegedRole));
            Assert.True(checkExit == 0, checkOut + checkErr);
            Assert.Contains($"pg_read_all_stats: {AttachCasesFixture.UnprivilegedRole} sees only its own sessions", checkOut);
            Assert.Contains($"fix: GRANT pg_monitor TO {AttachCasesFixture.UnprivilegedRole};", checkOut);

            // The failed bundle keeps the refusal (capture.log, manifest); packed with --redact, the hidden sessions'
            // role and application names are in no file of the archive.
            Assert.Contains(AttachCasesFixture.AppRole, File.ReadAllText(Path.Combine(dir, "capture.log")));
            var zip = Path.Combine(folder, "ticket.zip");
            var (packExit, _, packErr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "pack", dir, "--redact", "-o", zip);
            Assert.True(packExit == 0, packErr);
            using var archive = System.IO.Compression.ZipFile.OpenRead(zip);
            foreach (var entry in archive.Entries.Where(e => !e.FullName.EndsWith(".gz", StringComparison.Ordinal)))
            {
                using var text = new StreamReader(entry.Open());
                var content = text.ReadToEnd();
                Assert.False(content.Contains(AttachCasesFixture.AppRole, StringComparison.Ordinal), $"{entry.FullName} names the hidden sessions' role");
                Assert.False(content.Contains("hidden_load", StringComparison.Ordinal), $"{entry.FullName} names the hidden sessions' application");
            }
        }
        finally
        {
            load.Kill();
        }
    }

    [Fact]
    public async Task A_role_without_pg_monitor_watches_its_own_sessions_and_names_only_other_roles_client_backends_as_hidden()
    {
        using var others = _pg.StartPgbench("others_load", "SELECT pg_sleep(0.05);\n", 2, user: AttachCasesFixture.AppRole);
        using var own = _pg.StartPgbench("own_load", "SELECT pg_sleep(0.05);\n", 1, user: AttachCasesFixture.UnprivilegedRole);
        try
        {
            await _pg.WaitForAsync("others_load");
            await _pg.WaitForAsync("own_load");
            var dir = Path.Combine(TestData.TempFolder(), "bundle");
            var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2),
                "capture", "--engine", "postgres", "--server", _pg.ConnectionString(AttachCasesFixture.UnprivilegedRole), "--attach", "--duration", "2s", "-o", dir);
            Assert.True(exit == 0, stderr);
            Assert.Contains($"GRANT pg_monitor TO {AttachCasesFixture.UnprivilegedRole}; shows them", stderr);
            // The report's finding gives the same statement, runnable as printed.
            var findings = System.Text.Json.JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "report", "findings.json"))).RootElement.GetProperty("findings");
            var hiddenFinding = Assert.Single(findings.EnumerateArray(), f => f.GetProperty("id").GetString() == "sessions-hidden");
            Assert.StartsWith($"GRANT pg_monitor TO {AttachCasesFixture.UnprivilegedRole} (or connect as a role that has it)", hiddenFinding.GetProperty("next").GetString(), StringComparison.Ordinal);

            // With no filter every row the role cannot look into is a candidate: the other role's clients are named, the
            // server's own background processes that run as a role (the logical replication launcher) are not.
            using var bundle = CaptureBundle.Open(dir);
            var hidden = bundle.Manifest.Options["attach.hidden_pids"].Split(',').Select(int.Parse).ToArray();
            Assert.Superset(new HashSet<int>(await _pg.PidsAsync($"usename = '{AttachCasesFixture.AppRole}' AND application_name = 'others_load'")), new HashSet<int>(hidden));
            Assert.Empty(hidden.Intersect(await _pg.PidsAsync("backend_type <> 'client backend'")));
            Assert.Equal(await _pg.PidsAsync($"usename = '{AttachCasesFixture.UnprivilegedRole}' AND application_name = 'own_load'"), bundle.Manifest.Options["attach.backend_pids"].Split(',').Select(int.Parse).ToArray());
        }
        finally
        {
            others.Kill();
            own.Kill();
        }
    }

    [Fact]
    public async Task A_new_connection_per_transaction_is_followed_counted_while_it_lives_and_its_cpu_samples_attributed()
    {
        var (exit, stderr, findings, ledger, dir) = await CaptureAsync("churn", "SELECT count(*) FROM generate_series(1, 300000);\n", clients: 2, connectEach: true, extra: ["--offcpu", "on"]);
        Assert.True(exit == 0, stderr);
        var attach = ledger.GetProperty("attach");
        Assert.True(attach.GetProperty("sessionsEnded").GetInt32() >= 4, attach.ToString());
        Assert.True(attach.GetProperty("sessionsStarted").GetInt32() >= 4, attach.ToString());

        // Each session counts only while it lives: two clients are busy at most 2 × the window.
        Assert.InRange(ledger.GetProperty("sessionSeconds").GetDouble(), 0.3, 2 * 3.5);
        Assert.True(ledger.GetProperty("cpuSeconds").GetDouble() > 0.2, ledger.ToString());
        using var bundle = CaptureBundle.Open(dir);
        using (var processes = bundle.OpenText(BundlePaths.Processes("attach")))
        {
            Assert.True(processes is not null, "no cpu/processes.csv: " + LogLines(dir, "perf"));
            Assert.True(Csv.ReadRows(processes).Count() >= 4, "processes.csv holds the short-lived backends");
        }

        // Off-CPU stacks follow them too: two clients have two backends when the window opens, later ones are recorded.
        using (var intervals = bundle.OpenText(BundlePaths.OffCpuIntervals("attach")))
        {
            Assert.True(intervals is not null, "no offcpu/intervals.csv: " + LogLines(dir, "offcpu"));
            var sessions = Csv.ReadRows(intervals).Select(r => r[BundleColumns.OffCpuIntervals.Session]).Distinct().Count();
            Assert.True(sessions >= 4, $"off-CPU intervals of {sessions} session(s)");
        }

        Assert.DoesNotContain("CPU stacks not captured", File.ReadAllText(Path.Combine(dir, "report", "report.md")));
        Assert.DoesNotContain(findings, f => f.Id == "waits-explain-little" && f.Severity == "critical");
    }

    [Fact]
    public async Task With_track_activities_off_the_report_says_waits_cannot_be_seen_and_raises_nothing_on_them()
    {
        var (exit, stderr, findings, ledger, _) = await CaptureAsync("untracked", "SELECT count(*) FROM generate_series(1, 500000);\n", clients: 2, user: AttachCasesFixture.UntrackedRole);
        Assert.True(exit == 0, stderr);
        var f = Assert.Single(findings, f => f.Id == "activity-not-tracked");
        Assert.Contains("track_activities is off", f.Title);
        Assert.False(ledger.GetProperty("waitsCaptured").GetBoolean());
        Assert.Matches(@"[\d.]+ s whose state the server did not show \(track_activities off\)", _summary);
        Assert.DoesNotContain(findings, x => x.Id is "waits-explain-little" or "dominant-wait" or "client-waits");
        var (checkExit, checkOut, checkErr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "check", "--engine", "postgres", "--server", _pg.ConnectionString(AttachCasesFixture.UntrackedRole));
        Assert.True(checkExit == 0, checkOut + checkErr);
        Assert.Contains("track_activities: off", checkOut);
    }

    [Fact]
    public async Task A_self_signed_certificate_under_verify_full_names_the_cause_and_root_certificate_as_the_fix()
    {
        var tcp = $"Host=127.0.0.1;Port={_pg.Server.Port};Username=postgres;Database=postgres";
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "check", "--engine", "postgres", "--server", tcp + ";SSL Mode=VerifyFull");
        Assert.True(exit == 1, stderr);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("SSL Mode=VerifyFull could not verify the server's certificate", line);
        Assert.Contains("Root Certificate=", line);
        Assert.DoesNotContain("   at ", stderr);

        // The fix the line names works: the server's own certificate as the root (VerifyCA: it names no 127.0.0.1).
        var (fixedExit, stdout, fixedErr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "check", "--engine", "postgres", "--server", tcp + $";SSL Mode=VerifyCA;Root Certificate={_pg.CertificatePath}");
        Assert.True(fixedExit == 0, stdout + fixedErr);
    }

    private async Task<(int Exit, string Stderr, IReadOnlyList<(string Id, string Severity, string Title)> Findings, JsonElement Ledger, string Dir)> CaptureAsync(
        string application, string script, int clients, bool connectEach = false, string user = "postgres", string[]? extra = null)
    {
        using var load = _pg.StartPgbench(application, script, clients, connectEach, user);
        try
        {
            await _pg.WaitForAsync(application);
            var dir = Path.Combine(TestData.TempFolder(), "bundle");
            string[] args = ["capture", "--engine", "postgres", "--server", _pg.ConnectionString(), "--attach", "--duration", "3s", "--application", application, "-o", dir, .. extra ?? []];
            var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2), args);
            _summary = stdout;
            if (exit != 0)
            {
                return (exit, stderr, [], default, dir);
            }

            using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "report", "findings.json")));
            var findings = json.RootElement.GetProperty("findings").EnumerateArray()
                .Select(f => (f.GetProperty("id").GetString()!, f.GetProperty("severity").GetString()!, f.GetProperty("title").GetString()!)).ToArray();
            var ledger = json.RootElement.GetProperty("phases")[0].GetProperty("ledger").Clone();
            return (exit, stderr, findings, ledger, dir);
        }
        finally
        {
            load.Kill();
        }
    }

    /// <summary>The capture.log lines that mention <paramref name="word"/>, for a failure's message.</summary>
    private static string LogLines(string dir, string word) =>
        string.Join(" | ", File.ReadLines(Path.Combine(dir, "capture.log")).Where(l => l.Contains(word, StringComparison.Ordinal)));
}
