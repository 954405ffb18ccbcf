using System.Text.Json;

namespace SqlWaitProbe.Cli.Tests;

public sealed class WorkloadsCommandTests
{
    [Fact]
    public async Task List_as_json_names_every_postgres_workload()
    {
        var (exit, stdout, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "workloads", "list", "--engine", "postgres", "--format", "json");
        Assert.Equal(0, exit);
        using var doc = JsonDocument.Parse(stdout);
        Assert.Equal(["hashbytes", "noop", "hash-join", "select-into", "parallel-insert"], doc.RootElement.EnumerateArray().Select(e => e.GetProperty("name").GetString()));
    }

    [Fact]
    public async Task Show_prints_the_exact_sql()
    {
        var (exit, stdout, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "workloads", "show", "hashbytes", "--engine", "postgres", "--scale", "0.1");
        Assert.Equal(0, exit);
        Assert.Contains("SELECT sum(get_byte(digest(id, 'sha256'), 0)) FROM hb_demo;", stdout);
        Assert.Contains("generate_series(1, 200000)", stdout);
    }

    [Fact]
    public async Task Cleanup_removes_the_folder_of_a_killed_capture()
    {
        var folder = Path.Combine(Path.GetTempPath(), "probe-pg-cleanuptest" + Guid.NewGuid().ToString("N")[..6]);
        Directory.CreateDirectory(Path.Combine(folder, "data"));
        new Postgres.Embedded.EmbeddedMarker { RunId = "cleanuptest", ProbePid = 3_999_999, DataFolder = Path.Combine(folder, "data") }.Write(folder);

        var (dryExit, dryOut, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "cleanup", "--dry-run");
        Assert.Equal(0, dryExit);
        Assert.Contains(folder, dryOut);
        Assert.True(Directory.Exists(folder));

        var (exit, stdout, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "cleanup");
        Assert.Equal(0, exit);
        Assert.Contains("deleted " + folder, stdout);
        Assert.False(Directory.Exists(folder));
    }
}
