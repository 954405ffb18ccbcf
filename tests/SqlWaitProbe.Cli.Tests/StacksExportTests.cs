using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// pprof and Chrome trace outputs, read back by what reads them: pprof by Go's own <c>go tool pprof</c> (installed by
/// scripts/ensure-deps.sh), the trace's nested spans rebuilt into stacks and compared with the folded input.
/// </summary>
public sealed class StacksExportTests
{
    public static TheoryData<string> Inputs() => new()
    {
        "perf-script/flamegraph__perf-java-faults-01.txt",
        "perf-script/local__pg15-digest-1session.perf.txt.gz",
        "speedscope/v0.6.0_two-sampled.speedscope.json",
    };

    [Theory]
    [MemberData(nameof(Inputs))]
    public async Task Go_tool_pprof_reads_the_same_stacks_and_weights(string input)
    {
        var temp = TestData.TempFolder();
        var folded = Path.Combine(temp, "in.folded");
        Assert.Equal(0, (await InProcessProbe.RunAsync("stacks", "fold", TestData.Path(input), "-o", folded)).Exit);
        var pprof = Path.Combine(temp, "profile.pb.gz");
        var (exit, _, err) = await InProcessProbe.RunAsync("stacks", "pprof", folded, "-o", pprof);
        Assert.True(exit == 0, err);
        Assert.Equal(new byte[] { 0x1f, 0x8b }, File.ReadAllBytes(pprof)[..2]);

        var traces = await Go("tool", "pprof", "-symbolize=none", "-traces", pprof);
        Assert.True(traces.Exit == 0, traces.Err);
        var expected = StacksCli.ParseFolded(File.ReadAllText(folded));
        Assert.Equal(StacksCli.Describe(expected), StacksCli.Describe(ParseTraces(traces.Out)));
    }

    [Theory]
    [MemberData(nameof(Inputs))]
    public async Task The_chrome_trace_nests_every_stack_with_its_weight(string input)
    {
        var temp = TestData.TempFolder();
        var folded = Path.Combine(temp, "in.folded");
        Assert.Equal(0, (await InProcessProbe.RunAsync("stacks", "fold", TestData.Path(input), "-o", folded)).Exit);
        var trace = Path.Combine(temp, "trace.json");
        var (exit, _, err) = await InProcessProbe.RunAsync("stacks", "chrome-trace", folded, "-o", trace);
        Assert.True(exit == 0, err);
        using var json = JsonDocument.Parse(File.ReadAllText(trace));
        var rebuilt = Rebuild(json.RootElement.GetProperty("traceEvents"));
        Assert.Equal(StacksCli.Describe(StacksCli.ParseFolded(File.ReadAllText(folded))), StacksCli.Describe(rebuilt));
    }

    // go tool pprof -traces: blocks between dashed lines; the first line holds the value and the leaf, then callers;
    // a "process: NAME" label line names the process.
    private static Dictionary<string, long> ParseTraces(string text)
    {
        var result = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var block in text.Split("-----------+", StringSplitOptions.RemoveEmptyEntries).Skip(1))
        {
            var lines = block.Split('\n').Skip(1).Where(l => l.Trim().Length > 0).ToList();
            if (lines.Count == 0)
            {
                continue;
            }

            string? process = null;
            var frames = new List<string>();
            long value = 0;
            foreach (var line in lines)
            {
                var trimmed = line.Trim();
                if (trimmed.StartsWith("process:", StringComparison.Ordinal))
                {
                    process = trimmed["process:".Length..].Trim().Trim('[', ']');
                    continue;
                }

                var valuePart = line.Length > 11 ? line[..11].Trim() : trimmed;
                if (valuePart.Length > 0 && long.TryParse(valuePart, NumberStyles.None, CultureInfo.InvariantCulture, out var v))
                {
                    value = v;
                }

                var frame = line.Length > 13 ? line[13..].Trim() : string.Empty;
                if (frame.Length > 0)
                {
                    frames.Add(frame);
                }
            }

            frames.Reverse();
            var key = process + ";" + string.Join(';', frames);
            result[key] = result.GetValueOrDefault(key) + value;
        }

        return result;
    }

    // Spans of one process sorted by start, longest first (equal spans: outer first, as written): a span's callers are the spans still open around it; its
    // self time (duration less its children's) is the weight of its stack, one millisecond per sample.
    private static Dictionary<string, long> Rebuild(JsonElement events)
    {
        var names = new Dictionary<int, string>();
        var spans = new List<(int Pid, double Ts, double Dur, string Frame)>();
        foreach (var e in events.EnumerateArray())
        {
            var pid = e.GetProperty("pid").GetInt32();
            switch (e.GetProperty("ph").GetString())
            {
                case "M" when e.GetProperty("name").GetString() == "process_name":
                    names[pid] = e.GetProperty("args").GetProperty("name").GetString()!;
                    break;
                case "X":
                    spans.Add((pid, e.GetProperty("ts").GetDouble(), e.GetProperty("dur").GetDouble(), e.GetProperty("args").GetProperty("frame").GetString()!));
                    break;
            }
        }

        var result = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var group in spans.GroupBy(s => s.Pid))
        {
            var open = new List<(double End, string Frame, double Self)>();
            void CloseUntil(double ts)
            {
                while (open.Count > 0 && open[^1].End <= ts + 1e-6)
                {
                    var (_, _, self) = open[^1];
                    var key = names[group.Key] + ";" + string.Join(';', open.Select(o => o.Frame));
                    if (Math.Round(self / 1000) > 0)
                    {
                        result[key] = result.GetValueOrDefault(key) + (long)Math.Round(self / 1000);
                    }

                    open.RemoveAt(open.Count - 1);
                }
            }

            foreach (var span in group.OrderBy(s => s.Ts).ThenByDescending(s => s.Dur))
            {
                CloseUntil(span.Ts);
                if (open.Count > 0)
                {
                    open[^1] = open[^1] with { Self = open[^1].Self - span.Dur };
                }

                open.Add((span.Ts + span.Dur, span.Frame, span.Dur));
            }

            CloseUntil(double.MaxValue);
        }

        return result;
    }

    private static async Task<(int Exit, string Out, string Err)> Go(params string[] args)
    {
        var go = new[] { "/usr/bin/go", "/usr/lib/go/bin/go", "/usr/local/go/bin/go" }.FirstOrDefault(File.Exists);
        Assert.True(go is not null, "go is not installed: run scripts/ensure-deps.sh (it installs golang-go for go tool pprof)");
        var info = new ProcessStartInfo(go) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in args)
        {
            info.ArgumentList.Add(a);
        }

        info.Environment["GOCACHE"] = Path.Combine(Path.GetTempPath(), "probe-test-gocache");
        info.Environment["HOME"] = Path.GetTempPath();
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        return (process.ExitCode, await stdout, await stderr);
    }
}
