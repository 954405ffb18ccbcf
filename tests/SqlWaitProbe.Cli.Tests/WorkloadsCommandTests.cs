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
    public async Task List_fits_80_columns_and_never_breaks_a_name_across_lines()
    {
        // Redirected output is laid out for 80 columns, as an 80-column terminal is.
        var (exit, stdout, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "workloads", "list");
        var (_, json, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "workloads", "list", "--format", "json");
        Assert.Equal(0, exit);

        var lines = stdout.Split('\n').Select(l => l.TrimEnd('\r')).ToArray();
        Assert.All(lines, l => Assert.True(l.Length <= 80 || !l.Trim().Contains(' ', StringComparison.Ordinal), $"{l.Length} columns: {l}"));
        var words = stdout.Split([' ', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries).ToHashSet(StringComparer.Ordinal);
        using var doc = JsonDocument.Parse(json);
        foreach (var w in doc.RootElement.EnumerateArray())
        {
            Assert.Contains($"{w.GetProperty("name").GetString()} ({w.GetProperty("engine").GetString()})", lines);
            // Every word of what it does and what it is known to show is whole on some line (MEMORYCLERK_SQLQERESERVATIONS, …).
            foreach (var word in (w.GetProperty("summary").GetString() + " " + w.GetProperty("knownToShow").GetString()).Split(' ', StringSplitOptions.RemoveEmptyEntries))
            {
                Assert.Contains(word, words);
            }
        }
    }

    [Fact]
    public async Task Show_prints_the_exact_sql()
    {
        var (exit, stdout, _) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "workloads", "show", "hashbytes", "--engine", "postgres", "--scale", "0.1");
        Assert.Equal(0, exit);
        Assert.Contains("SELECT sum(get_byte(digest(id, 'sha256'), 0)) FROM hb_demo;", stdout);
        Assert.Contains("generate_series(1, 200000)", stdout);
    }

    [Theory]
    [InlineData("sqlserver", "hashbytes,cci-insert,cci-etl,parallel-insert,select-into,batch-hash-join,rowmode-alloc,heap-scan")]
    [InlineData("postgres", "hashbytes,noop,hash-join,select-into,parallel-insert")]
    public async Task Show_prints_sql_that_pastes_into_a_client_as_it_is(string engine, string names)
    {
        foreach (var name in names.Split(','))
        {
            var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), "workloads", "show", name, "--engine", engine);
            Assert.True(exit == 0, stderr);
            var lines = stdout.Split('\n').Select(l => l.TrimEnd('\r')).ToArray();
            Assert.DoesNotContain(lines, l => l.EndsWith(";;", StringComparison.Ordinal));
            var go = lines.Count(l => l == "GO");
            if (engine == "sqlserver")
            {
                // Every batch the probe sends separately ends with GO, as SSMS and sqlcmd expect: the last line is one.
                Assert.True(go >= 2, $"{name}: {go} GO lines");
                Assert.Equal("GO", lines.Last(l => l.Length > 0));
            }
            else
            {
                Assert.Equal(0, go);
                Assert.EndsWith(";", lines.Last(l => l.Length > 0), StringComparison.Ordinal);
            }
        }
    }
}
