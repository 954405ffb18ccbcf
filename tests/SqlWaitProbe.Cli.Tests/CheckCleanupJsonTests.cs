using System.Text.Json;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe check --format json</c> and <c>probe cleanup --format json</c> as a script reads them: stdout parses as one
/// JSON document, and the fields a script branches on (ready, items, statements, leftovers, what was cleaned) say
/// what the text says.
/// </summary>
public sealed class CheckCleanupJsonTests
{
    [Fact]
    public async Task Check_json_on_a_real_postgres_says_ready_with_the_version_login_and_each_extension()
    {
        await using var server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "j" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions(), new Progress<string>(), CancellationToken.None);

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("check", "--engine", "postgres", "--server", server.ConnectionString, "--format", "json");

        Assert.True(exit == 0, stderr);
        using var json = JsonDocument.Parse(stdout);
        var root = json.RootElement;
        Assert.Equal("postgres", root.GetProperty("engine").GetString());
        Assert.True(root.GetProperty("ready").GetBoolean());
        Assert.StartsWith("PostgreSQL 15", root.GetProperty("version").GetString());
        Assert.Contains("PostgreSQL 15", root.GetProperty("versionText").GetString());
        Assert.False(string.IsNullOrEmpty(root.GetProperty("login").GetString()));
        var items = root.GetProperty("items").EnumerateArray().ToDictionary(i => i.GetProperty("name").GetString()!);
        Assert.Equal(["pg_read_all_stats", "pg_wait_sampling", "pgcrypto", "track_activities"], items.Keys.Order(StringComparer.Ordinal));

        // The embedded server's role is a superuser with activity tracking on: attach would see every session.
        Assert.True(items["pg_read_all_stats"].GetProperty("ok").GetBoolean(), items["pg_read_all_stats"].ToString());
        Assert.True(items["track_activities"].GetProperty("ok").GetBoolean(), items["track_activities"].ToString());
        foreach (var item in items.Values)
        {
            Assert.False(item.GetProperty("required").GetBoolean());
            Assert.False(string.IsNullOrEmpty(item.GetProperty("status").GetString()));
            Assert.False(string.IsNullOrEmpty(item.GetProperty("detail").GetString()));
        }

        // The embedded server ships pgcrypto: either installed, or available with the statement that installs it.
        var pgcrypto = items["pgcrypto"];
        Assert.True(pgcrypto.GetProperty("ok").GetBoolean()
            ? pgcrypto.GetProperty("status").GetString()!.StartsWith("installed ", StringComparison.Ordinal)
            : pgcrypto.GetProperty("fix").GetString() == "CREATE EXTENSION pgcrypto;", pgcrypto.ToString());
        Assert.DoesNotContain("Password", stdout, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData("postgres", "Host=db01.example;Username=probe", "db01.example", "SELECT version();")]
    [InlineData("sqlserver", "db02.example", "db02.example", "SERVERPROPERTY('ProductMajorVersion')")]
    public async Task Check_dry_run_json_lists_what_would_be_sent_without_connecting(string engine, string server, string target, string firstStatement)
    {
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("check", "--engine", engine, "--server", server, "--dry-run", "--format", "json");

        Assert.True(exit == 0, stderr);
        using var json = JsonDocument.Parse(stdout);
        var root = json.RootElement;
        Assert.Equal(engine, root.GetProperty("engine").GetString());
        Assert.True(root.GetProperty("dryRun").GetBoolean());
        Assert.Equal(target, root.GetProperty("server").GetString());
        var statements = root.GetProperty("statements").EnumerateArray().ToList();
        Assert.True(statements.Count >= 2);
        Assert.Equal("version check", statements[0].GetProperty("purpose").GetString());
        Assert.Contains(firstStatement, statements[0].GetProperty("text").GetString());
        Assert.All(statements, s => Assert.False(string.IsNullOrWhiteSpace(s.GetProperty("text").GetString())));
    }

    [Fact]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public async Task Cleanup_json_lists_a_dead_run_in_the_dry_run_then_reports_it_cleaned_and_what_it_left_alone()
    {
        var runtime = Path.Combine(TestData.TempFolder("probe-cleanup-json"), "runtime");
        Directory.CreateDirectory(runtime, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        var dead = Path.Combine(runtime, "analyze-dead1");
        Directory.CreateDirectory(dead, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        TrustedJson.Write(Path.Combine(dead, RunMarker.FileName), new RunMarker
        {
            RunId = "dead1",
            Kind = "analyze",
            Owner = ProcessIdentity.Current with { Pid = 3_999_998 },
            CreatedUtc = DateTime.UtcNow,
        });
        File.WriteAllText(Path.Combine(dead, "scratch.csv"), "left by a killed analyze\n");
        var foreign = Path.Combine(runtime, "no-marker");
        Directory.CreateDirectory(foreign, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        var env = new Dictionary<string, string> { [RuntimeFolder.OverrideVariable] = runtime };

        using (var dry = ProbeProcess.Start(env, "cleanup", "--dry-run", "--format", "json"))
        {
            var (exit, stdout, stderr) = await dry.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.True(exit == 0, stderr);
            using var json = JsonDocument.Parse(stdout);
            var root = json.RootElement;
            Assert.True(root.GetProperty("dryRun").GetBoolean());
            Assert.Equal(runtime, root.GetProperty("privateFolder").GetString());
            Assert.Equal(1, root.GetProperty("found").GetInt32());
            Assert.Equal(0, root.GetProperty("cleaned").GetInt32());
            var leftover = root.GetProperty("leftovers").EnumerateArray().Single();
            Assert.Equal(dead, leftover.GetProperty("id").GetString());
            Assert.Contains("analyze run dead1", leftover.GetProperty("description").GetString());
            var actions = leftover.GetProperty("actions").EnumerateArray().Select(a => a.GetString()).ToList();
            Assert.Contains("delete " + Path.Combine(dead, "scratch.csv"), actions);
            Assert.Contains("delete folder " + dead, actions);
            Assert.Equal(JsonValueKind.Null, leftover.GetProperty("outcome").ValueKind);
            Assert.Contains(root.GetProperty("leftAlone").EnumerateArray(), a => a.GetString()!.StartsWith(foreign + ": no owner marker", StringComparison.Ordinal));
        }

        Assert.True(Directory.Exists(dead), "a dry run removes nothing");
        using var real = ProbeProcess.Start(env, "cleanup", "--format", "json");
        var (cleanExit, cleanOut, cleanErr) = await real.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(cleanExit == 0, cleanErr);
        using var cleaned = JsonDocument.Parse(cleanOut);
        Assert.False(cleaned.RootElement.GetProperty("dryRun").GetBoolean());
        Assert.Equal(1, cleaned.RootElement.GetProperty("cleaned").GetInt32());
        Assert.Equal(0, cleaned.RootElement.GetProperty("failed").GetInt32());
        var done = cleaned.RootElement.GetProperty("leftovers").EnumerateArray().Single();
        Assert.Contains("deleted " + dead, done.GetProperty("outcome").GetString());
        Assert.Equal(JsonValueKind.Null, done.GetProperty("error").ValueKind);
        Assert.False(Directory.Exists(dead));
        Assert.True(Directory.Exists(foreign), "a folder without the probe's marker is left alone");
    }
}
