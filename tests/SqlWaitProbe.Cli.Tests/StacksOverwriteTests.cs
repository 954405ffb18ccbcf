using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Every <c>probe stacks</c> verb that writes a file (and <c>probe xe read -o</c>) refuses to replace an existing
/// file without <c>--force</c>, before it reads its input, as analyze and pack do: exit 2, one line, the file kept.
/// </summary>
public sealed class StacksOverwriteTests
{
    private static readonly string Input = TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz");

    public static TheoryData<string[]> Verbs() => new()
    {
        new[] { "stacks", "fold", Input },
        new[] { "stacks", "flamegraph", Input },
        new[] { "stacks", "speedscope", Input },
        new[] { "stacks", "pprof", Input },
        new[] { "stacks", "chrome-trace", Input },
        new[] { "stacks", "diff", Input, Input },
        new[] { "stacks", "diff", Input, Input, "--folded" },
    };

    [Theory]
    [MemberData(nameof(Verbs))]
    public async Task A_stacks_verb_refuses_to_overwrite_an_existing_output_without_force(string[] verb)
    {
        var output = Path.Combine(TestData.TempFolder("probe-overwrite"), "existing.out");
        File.WriteAllText(output, "keep me\n");

        var (exit, _, stderr) = await InProcessProbe.RunAsync([.. verb, "-o", output]);

        Assert.True(exit == 2, $"exit {exit}: {stderr}");
        Assert.True(stderr.Trim().Split('\n').Length == 1 && stderr.StartsWith("probe: ", StringComparison.Ordinal), stderr);
        Assert.Contains("already exists; add --force", stderr);
        Assert.Equal("keep me\n", File.ReadAllText(output));

        var (forced, _, forcedErr) = await InProcessProbe.RunAsync([.. verb, "-o", output, "--force"]);
        Assert.True(forced == 0, forcedErr);
        Assert.NotEqual("keep me\n", File.ReadAllText(output));
    }

    [Fact]
    public async Task A_missing_input_with_an_existing_output_is_refused_for_the_output_first_and_writes_nothing()
    {
        var folder = TestData.TempFolder("probe-overwrite");
        var output = Path.Combine(folder, "flame.svg");
        File.WriteAllText(output, "keep me\n");

        var (exit, _, stderr) = await InProcessProbe.RunAsync("stacks", "flamegraph", Path.Combine(folder, "missing.perf.txt"), "-o", output);

        Assert.Equal(2, exit);
        Assert.Contains("add --force", stderr);
        Assert.Equal("keep me\n", File.ReadAllText(output));
        Assert.Equal([output], Directory.GetFileSystemEntries(folder));
    }
}
