using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

public sealed class StacksBadInputTests
{
    public static TheoryData<string, string, string> Cases() => new()
    {
        { "binary", "fold", "binary" },
        { "truncated-gz", "fold", "truncated" },
        { "empty", "fold", "empty" },
        { "not-perf", "fold", "neither perf script output" },
        { "no-count", "fold", "no count" },
        { "missing", "fold", "not found" },
        { "binary", "flamegraph", "binary" },
        { "truncated-gz", "flamegraph", "truncated" },
        { "empty", "speedscope", "empty" },
        { "not-perf", "speedscope", "nor a Windows trace (.etl, .etl.zip)" },
        { "no-count", "flamegraph", "no count" },
        { "missing", "modules", "not found" },
        { "truncated-gz", "diff", "truncated" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Bad_input_exits_2_with_one_line_and_leaves_no_output(string kind, string command, string expected)
    {
        var folder = TestData.TempFolder();
        var input = Make(kind, folder);
        var output = Path.Combine(folder, "out.result");
        var args = command switch
        {
            "modules" => new[] { "stacks", command, input },
            "diff" => new[] { "stacks", command, TestData.Path("perf-script/inferno__go-stacks.txt"), input, "-o", output },
            _ => new[] { "stacks", command, input, "-o", output },
        };
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync(args);
        Assert.Equal(2, exit);
        var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var line = Assert.Single(lines);
        Assert.Contains(input, line);
        Assert.Contains(expected, line);
        Assert.DoesNotContain("   at ", stderr);
        Assert.Equal(string.Empty, stdout);
        Assert.False(File.Exists(output));
        Assert.DoesNotContain(Directory.GetFiles(folder), f => f.EndsWith(".tmp", StringComparison.Ordinal));
    }

    private static string Make(string kind, string folder)
    {
        var path = Path.Combine(folder, kind + (kind == "truncated-gz" ? ".txt.gz" : ".txt"));
        switch (kind)
        {
            case "binary":
                File.WriteAllBytes(path, [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0]);
                break;
            case "truncated-gz":
                var gz = File.ReadAllBytes(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz"));
                File.WriteAllBytes(path, gz[..(gz.Length * 2 / 3)]);
                break;
            case "empty":
                File.WriteAllBytes(path, []);
                break;
            case "not-perf":
                File.WriteAllText(path, "Hello,\nthis is a letter, not a profile.\n");
                break;
            case "no-count":
                File.WriteAllText(path, "main;a;b 3\nmain;a;c\n");
                break;
            case "missing":
                path = Path.Combine(folder, "does-not-exist.txt");
                break;
        }

        return path;
    }
}
