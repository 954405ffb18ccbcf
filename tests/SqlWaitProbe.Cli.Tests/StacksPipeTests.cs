using System.Diagnostics;
using System.Text.Json;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Stack inputs from pipes as a user types them (<c>cat FILE | probe stacks fold -</c>), speedscope inputs, and the
/// probe's own speedscope output read back. Runs the built probe under a real shell so the pipes are real.
/// </summary>
public sealed class StacksPipeTests
{
    public static TheoryData<string> Inputs() => new()
    {
        "perf-script/flamegraph__perf-dd-stacks-01.txt",
        "perf-script/speedscope__simple-with-header.linux-perf.txt",
        "perf-script/local__pg15-digest-1session.perf.txt.gz",
        "folded/inputs/speedscope__simple.txt",
        "folded/inputs/speedscope__simple-utf16-le.txt",
        "speedscope/v0.0.1_simple.speedscope.json",
        "speedscope/v0.6.0_two-sampled.speedscope.json",
    };

    [Theory]
    [MemberData(nameof(Inputs))]
    public async Task Folding_a_pipe_equals_folding_the_file(string input)
    {
        var file = TestData.Path(input);
        var direct = await Shell($"{Probe} stacks fold '{file}'");
        Assert.True(direct.Exit == 0, direct.Err);
        Assert.NotEmpty(direct.Out);
        var dash = await Shell($"cat '{file}' | {Probe} stacks fold -");
        Assert.True(dash.Exit == 0, dash.Err);
        Assert.Equal(direct.Out, dash.Out);
        var devStdin = await Shell($"cat '{file}' | {Probe} stacks fold /dev/stdin");
        Assert.True(devStdin.Exit == 0, devStdin.Err);
        Assert.Equal(direct.Out, devStdin.Out);
    }

    [Fact]
    public async Task Every_stack_verb_reads_a_pipe()
    {
        var file = TestData.Path("perf-script/flamegraph__perf-java-faults-01.txt");
        var temp = TestData.TempFolder();
        foreach (var verb in new[]
        {
            $"stacks flamegraph - -o '{temp}/f.svg'", $"stacks speedscope - -o '{temp}/s.json'", "stacks modules - --format csv",
            "stacks focus - --focus '_int_malloc'", $"stacks diff - '{file}' -o '{temp}/d.svg'", $"stacks diff '{file}' - --folded",
        })
        {
            var piped = await Shell($"cat '{file}' | {Probe} {verb}");
            Assert.True(piped.Exit == 0, verb + ": " + piped.Err);
        }

        Assert.Contains("<svg", File.ReadAllText(Path.Combine(temp, "f.svg")));
        Assert.Contains("speedscope", File.ReadAllText(Path.Combine(temp, "s.json")));
        var both = await Shell($"cat '{file}' | {Probe} stacks diff - - --folded");
        Assert.Equal(2, both.Exit);
        Assert.Contains("standard input", both.Err);
    }

    [Fact]
    public async Task Shared_speedscope_files_fold_to_the_weights_their_events_and_samples_give()
    {
        // Evented: c is on top 0–2 and 6–9, d 2–6, b alone 9–14. Sampled: the same stacks with weights 1+1+3, 4, 5.
        var evented = await Shell($"{Probe} stacks fold '{TestData.Path("speedscope/v0.0.1_simple-no-pretty-print.speedscope.json")}'");
        Assert.Equal("simple.txt;a;b 5\nsimple.txt;a;b;c 5\nsimple.txt;a;b;d 4\n", evented.Out);
        var sampled = await Shell($"{Probe} stacks fold '{TestData.Path("speedscope/v0.1.2_simple-sampled.speedscope.json")}'");
        Assert.Equal("simple.speedscope.json;a;b 5\nsimple.speedscope.json;a;b;c 5\nsimple.speedscope.json;a;b;d 4\n", sampled.Out);
    }

    [Theory]
    [InlineData("incomplete-trace.json", "still open")]
    [InlineData("out-of-order-events.json", "out of order")]
    public async Task Invalid_speedscope_files_are_bad_input(string file, string said)
    {
        var result = await Shell($"{Probe} stacks fold '{TestData.Path("speedscope/invalid/" + file)}'");
        Assert.Equal(2, result.Exit);
        Assert.Contains(said, result.Err);
        Assert.Single(result.Err.Trim().Split('\n'));
    }

    [Theory]
    [InlineData("perf-script/flamegraph__perf-java-faults-01.txt")]
    [InlineData("perf-script/local__pg15-digest-1session.perf.txt.gz")]
    [InlineData("perf-script/speedscope__simple-with-pid.linux-perf.txt")]
    public async Task The_probes_own_speedscope_folds_back_to_the_same_stacks(string input)
    {
        var temp = TestData.TempFolder();
        var folded = await Shell($"{Probe} stacks fold --all '{TestData.Path(input)}' -o '{temp}/f.folded'");
        Assert.True(folded.Exit == 0, folded.Err);
        var written = await Shell($"{Probe} stacks speedscope '{temp}/f.folded' -o '{temp}/s.json'");
        Assert.True(written.Exit == 0, written.Err);
        var again = await Shell($"{Probe} stacks fold '{temp}/s.json'");
        Assert.Equal(File.ReadAllText(Path.Combine(temp, "f.folded")), again.Out);
    }

    [Fact]
    public async Task A_speedscope_input_keeps_its_unit()
    {
        var temp = TestData.TempFolder();
        var result = await Shell($"cat '{TestData.Path("speedscope/v0.6.0_two-sampled.speedscope.json")}' | {Probe} stacks speedscope - -o '{temp}/s.json'");
        Assert.True(result.Exit == 0, result.Err);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(temp, "s.json")));
        Assert.All(json.RootElement.GetProperty("profiles").EnumerateArray(), p => Assert.Equal("seconds", p.GetProperty("unit").GetString()));
    }

    [Fact]
    public async Task A_truncated_gzip_through_a_pipe_is_bad_input()
    {
        var file = TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz");
        var result = await Shell($"head -c {new FileInfo(file).Length / 2} '{file}' | {Probe} stacks fold -");
        Assert.Equal(2, result.Exit);
        Assert.Contains("truncated", result.Err);
    }

    private static string Probe => $"dotnet '{ProbeProcess.Dll}'";

    private static async Task<(int Exit, string Out, string Err)> Shell(string command)
    {
        var info = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true };
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add("set -o pipefail; " + command);
        info.Environment["CI"] = "1";
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var cts = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        await process.WaitForExitAsync(cts.Token);
        return (process.ExitCode, await stdout, await stderr);
    }
}
