using System.Globalization;
using System.Text.RegularExpressions;
using SqlWaitProbe.Cli.Infrastructure;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>What a user (or a script) expects of any System.CommandLine tool: suggestions, help, completions, exit codes.</summary>
public sealed class CliConventionsTests
{
    [Fact]
    public async Task A_mistyped_command_is_bad_input_and_the_right_one_is_suggested()
    {
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("captur");
        Assert.Equal(2, exit);
        Assert.Equal(string.Empty, stdout);
        Assert.Contains("'captur'", stderr);
        Assert.Matches(new Regex("Did you mean.*\\n\\s*capture\\s*\\n", RegexOptions.Singleline), stderr);
    }

    [Fact]
    public async Task A_mistyped_option_suggests_the_option()
    {
        var (exit, _, stderr) = await InProcessProbe.RunAsync("stacks", "modules", "in.folded", "--formt", "json");
        Assert.Equal(2, exit);
        Assert.Contains("--format", stderr);
    }

    [Theory]
    [InlineData(new string[0], "capture")]
    [InlineData(new[] { "stacks" }, "flamegraph")]
    [InlineData(new[] { "workloads" }, "show")]
    public async Task A_command_group_alone_prints_its_help(string[] args, string listed)
    {
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync(args);
        Assert.Equal(0, exit);
        Assert.Equal(string.Empty, stderr);
        Assert.Contains("Usage:", stdout);
        Assert.Contains(listed, stdout);
    }

    [Theory]
    [InlineData("workloads show ", "hashbytes,cci-insert,noop,hash-join")]
    [InlineData("capture --engine ", "postgres,sqlserver")]
    [InlineData("capture --cpu ", "perf,etw,none")]
    [InlineData("capture --workload ", "hashbytes,select-into")]
    [InlineData("demo --cpu ", "perf,none")]
    [InlineData("workloads list --format ", "table,json")]
    [InlineData("stacks modules x --format ", "table,csv,json")]
    [InlineData("analyze --format ", "text,json")]
    public void Values_complete(string line, string expected)
    {
        var labels = Program.BuildRoot(new TestConsole()).Parse(line).GetCompletions(line.Length).Select(c => c.Label).ToArray();
        Assert.All(expected.Split(','), e => Assert.Contains(e, labels));
    }

    [Theory]
    [InlineData("check", "--server", "The server to check")]
    [InlineData("check", "--dry-run", "queries check would send")]
    [InlineData("cleanup", "--server", "Also drop the XE")]
    [InlineData("capture", "--server", "embedded server")]
    [InlineData("capture", "--dry-run", "every statement the capture would send")]
    public async Task Each_option_is_described_for_its_own_command(string command, string option, string said)
    {
        var (exit, stdout, _) = await InProcessProbe.RunAsync(command, "--help");
        Assert.Equal(0, exit);
        var line = stdout.Split('\n').Single(l => Regex.IsMatch(l, "^\\s+(-\\w, )?" + Regex.Escape(option) + "\\b"));
        Assert.Contains(said, line);
        if (command is "check" or "cleanup")
        {
            Assert.DoesNotContain("starts an embedded server", line);
            // Not capture's text copied over (cleanup may speak of killed captures in its own words).
            Assert.DoesNotContain("the capture would send", line);
            Assert.DoesNotContain("Server to use", line);
        }
    }

    [Fact]
    public async Task Focus_writes_json_with_weights_in_samples()
    {
        var input = SqlWaitProbe.TestSupport.TestData.Path("perf-script/flamegraph__perf-java-faults-01.txt");
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("stacks", "focus", input, "--focus", "_int_malloc", "--format", "json");
        Assert.True(exit == 0, stderr);
        using var json = System.Text.Json.JsonDocument.Parse(stdout);
        Assert.Equal("samples", json.RootElement.GetProperty("unit").GetString());
        Assert.True(json.RootElement.GetProperty("inclusiveWeight").GetInt64() > 0);
        Assert.True(json.RootElement.GetProperty("callers").GetArrayLength() > 0);
    }

    [Fact]
    public async Task The_suggest_directive_answers_dotnet_suggest()
    {
        var (exit, stdout, _) = await InProcessProbe.RunAsync("[suggest:15]", "workloads show ");
        Assert.Equal(0, exit);
        Assert.Contains("hashbytes\n", stdout.Replace("\r\n", "\n", StringComparison.Ordinal));
    }

    [Fact]
    public async Task An_internal_error_exits_70_and_names_a_log_that_exists()
    {
        var console = new TestConsole();
        var exit = await InternalError.ReportAsync(console, new InvalidOperationException("the probe broke"), logFolder: null, ["analyze", "x"]);

        Assert.Equal(70, exit);
        var log = Regex.Match(console.ErrorText, "details in (\\S+\\.log)").Groups[1].Value;
        Assert.True(File.Exists(log), console.ErrorText);
        var text = File.ReadAllText(log);
        Assert.Contains("InvalidOperationException: the probe broke", text);
        Assert.Matches("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z ", text);
        File.Delete(log);
    }

    [Fact]
    public async Task Logs_written_under_a_far_time_zone_carry_utc_times()
    {
        var root = AnalyzeCommandTests.Scenario().Write();
        var before = DateTime.UtcNow.AddSeconds(-2);
        using var probe = ProbeProcess.Start(new Dictionary<string, string> { ["TZ"] = "Asia/Tokyo" }, "analyze", root);
        var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromMinutes(3));
        var after = DateTime.UtcNow.AddSeconds(2);
        Assert.True(exit == 0, stderr);
        var lines = File.ReadAllLines(Path.Combine(root, "report", "probe.log"));
        Assert.NotEmpty(lines);
        Assert.Contains(lines, l => l.Contains("analysing", StringComparison.Ordinal));
        foreach (var line in lines.Where(l => Regex.IsMatch(l, "^\\d{4}-")))
        {
            var time = DateTime.ParseExact(line[..24], "yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal);
            Assert.InRange(time, before, after);
        }

        // The progress lines on stderr carry the same UTC clock.
        foreach (Match m in Regex.Matches(stderr, "^(\\d\\d):(\\d\\d):(\\d\\d)Z ", RegexOptions.Multiline))
        {
            var hour = int.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture);
            Assert.Contains(hour, new[] { before.Hour, after.Hour });
        }
    }
}
