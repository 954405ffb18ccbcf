using System.Security.Cryptography;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Every kind of bad input through every command that reads files, as a user runs the built <c>probe</c>:
/// exit 2, at most three lines on stderr, no stack trace, and no output left behind.
/// </summary>
public sealed class BadInputAcceptanceTests
{
    private static readonly string[] Kinds = ["random-bytes", "truncated-gz", "empty", "garbage-folded", "broken-manifest", "missing"];

    public static TheoryData<string, string> Cases()
    {
        var data = new TheoryData<string, string>();
        foreach (var command in new[] { "stacks fold", "stacks flamegraph", "analyze", "pack" })
        {
            foreach (var kind in Kinds)
            {
                data.Add(command, kind);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Bad_input_exits_2_with_a_short_message_and_leaves_no_output(string command, string kind)
    {
        var folder = TestData.TempFolder("probe-bad-input");
        var input = Make(kind, folder);
        var output = Path.Combine(folder, command == "pack" ? "out.zip" : command == "analyze" ? "report" : "out.result");
        var args = command.Split(' ').Append(input).Concat(["-o", output]).ToArray();

        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), args);

        Assert.True(exit == 2, $"{command} {kind}: exit {exit}\n{stderr}\n{stdout}");
        AssertShort(stderr);
        Assert.False(File.Exists(output) || Directory.Exists(output), $"{command} {kind} left {output}");
        var left = Directory.GetFileSystemEntries(folder, "*", SearchOption.AllDirectories)
            .Where(f => f.EndsWith(".tmp", StringComparison.Ordinal) || Path.GetFileName(f).StartsWith("out", StringComparison.Ordinal) || Path.GetFileName(f) == "report");
        Assert.Empty(left);
    }

    [Fact]
    public async Task Unknown_workload_exits_2_and_creates_no_bundle()
    {
        var output = Path.Combine(TestData.TempFolder("probe-bad-input"), "bundle");

        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), "capture", "--workload", "nope", "-o", output);

        Assert.Equal(2, exit);
        Assert.Contains("nope", stderr);
        AssertShort(stderr);
        Assert.False(Directory.Exists(output));
    }

    private static void AssertShort(string stderr)
    {
        var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(lines.Length is >= 1 and <= 3, stderr);
        Assert.DoesNotContain("   at ", stderr);
        Assert.DoesNotContain("Exception", stderr);
    }

    private static string Make(string kind, string folder)
    {
        switch (kind)
        {
            case "random-bytes":
                var random = Path.Combine(folder, "random.bin");
                File.WriteAllBytes(random, RandomNumberGenerator.GetBytes(4096));
                return random;
            case "truncated-gz":
                var gz = File.ReadAllBytes(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz"));
                var cut = Path.Combine(folder, "cut.perf.txt.gz");
                File.WriteAllBytes(cut, gz[..(gz.Length / 2)]);
                return cut;
            case "empty":
                var empty = Path.Combine(folder, "empty.txt");
                File.WriteAllBytes(empty, []);
                return empty;
            case "garbage-folded":
                var folded = Path.Combine(folder, "garbage.folded");
                File.WriteAllText(folded, "main;a;b 3\n;;;; x y z\n\u0001\u0002 not a count\n");
                return folded;
            case "broken-manifest":
                var bundle = new CraftedBundle("postgres", "postgres").Phase("load", 2, 5, 3).Write(folder);
                File.WriteAllText(Path.Combine(bundle, "manifest.json"), "{ \"schemaVersion\": 1, \"phases\": [ {\"name\": ");
                return bundle;
            default:
                return Path.Combine(folder, "does-not-exist");
        }
    }
}
