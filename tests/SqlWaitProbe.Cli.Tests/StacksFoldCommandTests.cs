using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

public sealed class StacksFoldCommandTests
{
    public static TheoryData<string> References()
    {
        var data = new TheoryData<string>();
        foreach (var file in Directory.GetFiles(TestData.Path("folded/expected-from-perf/inferno-default"), "*.folded").Order(StringComparer.Ordinal))
        {
            if (new FileInfo(file).Length > 0)
            {
                data.Add(Path.GetFileName(file));
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(References))]
    public async Task Fold_writes_the_stacks_and_weights_of_inferno(string reference)
    {
        var stem = reference[..^".folded".Length];
        var input = new[] { ".txt", ".txt.gz" }.Select(e => TestData.Path("perf-script/" + stem + e)).First(File.Exists);
        var output = Path.Combine(TestData.TempFolder(), "out.folded");
        var (exit, _, err) = await InProcessProbe.RunAsync("stacks", "fold", input, "-o", output);
        Assert.Equal(0, exit);
        Assert.Equal(string.Empty, err);
        var expected = StacksCli.ParseFolded(File.ReadAllText(TestData.Path("folded/expected-from-perf/inferno-default/" + reference)));
        Assert.Equal(StacksCli.Describe(expected), StacksCli.Describe(StacksCli.ParseFolded(File.ReadAllText(output))));
    }

    [Fact]
    public async Task Fold_options_reach_the_output()
    {
        var input = TestData.Path("perf-script/flamegraph__perf-rust-Yamakaky-dcpu.txt");
        var (exit, stdout, _) = await InProcessProbe.RunAsync("stacks", "fold", input, "--tid", "--all");
        Assert.Equal(0, exit);
        var expected = StacksCli.ParseFolded(File.ReadAllText(TestData.Path("folded/expected-from-perf/inferno/perf-rust-Yamakaky-dcpu-collapsed-tid.txt")));
        Assert.All(StacksCli.ParseFolded(stdout).Keys, k => Assert.Matches("^emulator-\\?/[0-9]+;", k));
        Assert.Contains("_[k]", stdout);
        Assert.Equal(expected.Values.Sum(), StacksCli.ParseFolded(stdout).Values.Sum());
    }

    [Fact]
    public async Task Folded_input_is_detected_and_identical_stacks_merged()
    {
        var input = Path.Combine(TestData.TempFolder(), "in.folded");
        File.WriteAllText(input, "# comment\nmain;a;b 2\nmain;a 1\nmain;a;b 3\n");
        var (exit, stdout, _) = await InProcessProbe.RunAsync("stacks", "fold", input);
        Assert.Equal(0, exit);
        Assert.Equal("main;a 1\nmain;a;b 5\n", stdout);
    }

    [Fact]
    public async Task Utf16_folded_input_is_read()
    {
        var (exit, stdout, _) = await InProcessProbe.RunAsync("stacks", "fold", TestData.Path("folded/inputs/speedscope__simple-utf16-le.txt"));
        Assert.Equal(0, exit);
        var expected = StacksCli.ParseFolded(File.ReadAllText(TestData.Path("folded/inputs/speedscope__simple.txt")));
        Assert.Equal(StacksCli.Describe(expected), StacksCli.Describe(StacksCli.ParseFolded(stdout)));
    }
}
