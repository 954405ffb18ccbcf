using System.Diagnostics;
using System.Globalization;
using System.IO.Compression;
using System.Text;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// What a hostile bundle may cost: a small gzip file inside a bundle that expands to gigabytes (a gzip bomb) and a
/// bundle whose analysis outgrows the memory budget end in exit 2 with one line naming the limit and the variable
/// that raises it, in bounded memory (the probe runs as a child process whose peak resident size is read from
/// /proc while it runs).
/// </summary>
public sealed class BundleCostLimitsTests
{
    private const long BoundedBytes = 400L << 20;

    [Theory]
    [InlineData("repeated-events", "PROBE_MAX_ZIP_RATIO")]
    [InlineData("endless-event", "PROBE_MAX_LINE_KIB")]
    public async Task A_gzip_bomb_perf_script_in_a_bundle_stops_stacks_fold_with_exit_2_one_line_in_bounded_memory(string kind, string variable)
    {
        var root = AnalyzeCommandTests.Scenario().Write();
        var bomb = Path.Combine(root, "phases", "load", "cpu", "perf.script.gz");
        WriteBomb(bomb, kind);
        BundleEdit.Rehash(root);

        var (exit, stdout, stderr, peak) = await RunMeasured([], "stacks", "fold", bomb);

        Assert.True(exit == 2, $"exit {exit}: {stderr}");
        AssertOneLine(stderr, variable);
        Assert.Equal("", stdout);
        Assert.True(peak < BoundedBytes, $"peak resident size {peak >> 20} MiB");
    }

    [Fact]
    public async Task A_gzip_bomb_in_a_bundle_stops_a_redacted_pack_with_exit_2_and_leaves_no_zip()
    {
        var root = AnalyzeCommandTests.Scenario().Write();
        var bomb = Path.Combine(root, "phases", "load", "offcpu", "perf.script.gz");
        Directory.CreateDirectory(Path.GetDirectoryName(bomb)!);
        WriteBomb(bomb, "repeated-events");
        BundleEdit.Rehash(root);
        var outFolder = TestData.TempFolder("probe-bomb-pack");
        var zip = Path.Combine(outFolder, "ticket.zip");

        var (exit, _, stderr, peak) = await RunMeasured([], "pack", root, "--redact", "-o", zip);

        Assert.True(exit == 2, $"exit {exit}: {stderr}");
        AssertOneLine(stderr, "PROBE_MAX_ZIP_RATIO");
        Assert.Contains("phases/load/offcpu/perf.script.gz", stderr);
        Assert.Empty(Directory.GetFileSystemEntries(outFolder));
        Assert.True(peak < BoundedBytes, $"peak resident size {peak >> 20} MiB");
    }

    [Fact]
    public async Task The_analysis_memory_budget_stops_analyze_with_exit_2_naming_the_variable_and_the_default_budget_analyses()
    {
        // 4 sessions × 100,000 executions: the reader checks memory every 16,384 lines, and by the later checks the
        // execution times it keeps for the latency percentiles (4 bytes each) hold more than 1 MiB.
        var root = new CraftedBundle("postgres", "postgres")
            .Phase("baseline", 1, 100, 2).Sessions("baseline", 150)
            .Phase("load", 4, 100_000, 1).Sessions("load", 300_000)
            .Write();
        var report = Path.Combine(TestData.TempFolder("probe-budget"), "report");

        var (exit, _, stderr, _) = await RunMeasured(new Dictionary<string, string> { ["PROBE_MAX_ANALYSIS_MIB"] = "1" }, "analyze", root, "-o", report);

        Assert.True(exit == 2, $"exit {exit}: {stderr}");
        AssertOneLine(stderr, "PROBE_MAX_ANALYSIS_MIB");
        Assert.Contains("memory budget (1 MiB)", stderr);
        Assert.False(File.Exists(Path.Combine(report, "report.md")));

        var (fullExit, _, fullErr, _) = await RunMeasured([], "analyze", root, "-o", report);
        Assert.True(fullExit == 0, fullErr);
        Assert.True(File.Exists(Path.Combine(report, "report.md")));
    }

    /// <summary>
    /// A few long lines that each add 100,000 frames to the profile: 40 lines of 100,000 distinct frames (the frame
    /// table grows), or 40 lines of 100,000 frames of a few names, each line a new call path (the stack table grows).
    /// A budget checked every 16,384 lines never saw them; it now holds per line read and per frame and call path
    /// interned, for the stack verbs and for analyze of a bundle holding such stacks.
    /// </summary>
    [Theory]
    [InlineData("distinct-frames", "stacks speedscope")]
    [InlineData("distinct-frames", "analyze")]
    [InlineData("deep-paths", "stacks flamegraph")]
    [InlineData("deep-paths", "analyze")]
    public async Task Few_lines_of_many_frames_stop_at_the_memory_budget_with_exit_2_in_bounded_memory(string kind, string command)
    {
        var folder = TestData.TempFolder("probe-budget-lines");
        var folded = Path.Combine(folder, "wide.folded");
        using (var writer = new StreamWriter(folded))
        {
            var n = 0;
            for (var line = 0; line < 40; line++)
            {
                writer.Write(kind == "deep-paths" ? $"postgres;m!entry{line}" : "postgres");
                for (var i = 0; i < 100_000; i++)
                {
                    writer.Write(kind == "deep-paths" ? ";m!f" : ";m!f" + (n++).ToString("x6", CultureInfo.InvariantCulture));
                }

                writer.Write(" 7\n");
            }
        }

        string[] args;
        var output = Path.Combine(folder, "out");
        if (command == "analyze")
        {
            var root = HostileCorpus.Healthy().Write(folder);
            File.Copy(folded, Path.Combine(root, "phases", "load", "cpu", "stacks.folded"), overwrite: true);
            BundleEdit.Rehash(root);
            args = ["analyze", root, "-o", output];
        }
        else
        {
            args = [.. command.Split(' '), folded, "-o", output];
        }

        var (exit, _, stderr, peak) = await RunMeasured(new Dictionary<string, string> { ["PROBE_MAX_ANALYSIS_MIB"] = "128" }, args);

        Assert.True(exit == 2, $"exit {exit}: {stderr}");
        AssertOneLine(stderr, "PROBE_MAX_ANALYSIS_MIB");
        Assert.Contains("memory budget (128 MiB)", stderr);
        Assert.False(File.Exists(output) || File.Exists(Path.Combine(output, "report.md")));
        Assert.True(peak < BoundedBytes, $"peak resident size {peak >> 20} MiB");
    }

    /// <summary>
    /// A small gzip of real perf script text that expands to 128 MiB: the first event of a recorded capture repeated,
    /// each followed by 4,096 blank lines (which readers skip; together about 800:1), or that event's header followed
    /// by frame lines with no end (one endless event).
    /// </summary>
    private static void WriteBomb(string path, string kind)
    {
        var recorded = TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz");
        string firstEvent;
        using (var reader = new StreamReader(new GZipStream(File.OpenRead(recorded), CompressionMode.Decompress)))
        {
            var text = new StringBuilder();
            while (reader.ReadLine() is { Length: > 0 } line)
            {
                text.Append(line).Append('\n');
            }

            firstEvent = text.ToString();
        }

        var block = Encoding.UTF8.GetBytes(kind == "endless-event" ? string.Concat(Enumerable.Repeat(firstEvent.Split('\n')[1] + "\n", 64)) : firstEvent + new string('\n', 4096));
        using var file = File.Create(path);
        using var gzip = new GZipStream(file, CompressionLevel.SmallestSize);
        if (kind == "endless-event")
        {
            gzip.Write(Encoding.UTF8.GetBytes(firstEvent.Split('\n')[0] + "\n"));
        }

        for (long written = 0; written < 128L << 20; written += block.Length)
        {
            gzip.Write(block);
        }
    }

    private static void AssertOneLine(string stderr, string variable)
    {
        // Progress lines (a pack builds the report first) are not errors; the error is one line, the last.
        var lines = stderr.Trim().Split('\n');
        Assert.True(lines.Count(l => l.StartsWith("probe: ", StringComparison.Ordinal)) == 1 && lines[^1].StartsWith("probe: ", StringComparison.Ordinal), stderr);
        Assert.Contains(variable, stderr);
        Assert.DoesNotContain("   at ", stderr);
    }

    /// <summary>
    /// Runs the probe as a child and samples, until it exits, its peak resident size (VmHWM) and the CPU time it used.
    /// What bounds the run is the work it does, not the clock: a shared machine under load can take minutes of wall
    /// time for seconds of CPU, so a wall-clock timeout failed runs that did exactly what they should. The child fails
    /// the test when it uses more than <see cref="CpuLimit"/> of CPU (it is reading the bomb after all) or makes no
    /// progress at all for <see cref="StallLimit"/> (hung), and the message says how much CPU it had used.
    /// </summary>
    private static async Task<(int Exit, string Out, string Err, long PeakBytes)> RunMeasured(Dictionary<string, string> environment, params string[] args)
    {
        using var probe = ProbeProcess.Start(environment, args);
        var status = $"/proc/{probe.Id}/status";
        var stat = $"/proc/{probe.Id}/stat";
        long peak = 0;
        var cpu = TimeSpan.Zero;
        var sinceProgress = Stopwatch.StartNew();
        while (!probe.HasExited)
        {
            try
            {
                var line = File.ReadLines(status).FirstOrDefault(l => l.StartsWith("VmHWM:", StringComparison.Ordinal));
                if (line is not null)
                {
                    peak = Math.Max(peak, long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) * 1024);
                }

                if (CpuTime(File.ReadAllText(stat)) is { } used && used > cpu)
                {
                    cpu = used;
                    sinceProgress.Restart();
                }
            }
            catch (IOException)
            {
                // The process is gone.
            }

            if (cpu > CpuLimit || sinceProgress.Elapsed > StallLimit)
            {
                probe.Kill();
                var (_, _, killedErr) = await probe.WaitAsync(TimeSpan.FromMinutes(1));
                Assert.Fail($"probe {string.Join(' ', args)} {(cpu > CpuLimit ? "used more than" : "stalled after")} {cpu.TotalSeconds:0.0} s of CPU; stderr: {killedErr}");
            }

            await Task.Delay(10);
        }

        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromMinutes(1));
        Assert.True(peak > 0, "the child's peak resident size was never read");
        return (exit, stdout, stderr, peak);
    }

    // Work a bomb may cost the probe: each case here takes 0.1-2 s of CPU when stopped where it should be (pack --redact
    // of the blank-line bomb took 31 s while every blank line went through every redaction rule); reading a bomb whole
    // takes far more.
    private static readonly TimeSpan CpuLimit = TimeSpan.FromSeconds(30);

    // No CPU used at all for this long while the process lives: it is blocked, not slow.
    private static readonly TimeSpan StallLimit = TimeSpan.FromMinutes(3);

    // utime + stime (fields 14 and 15, in clock ticks of 1/100 s) of /proc/PID/stat; the name in parentheses may hold spaces.
    private static TimeSpan? CpuTime(string stat)
    {
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return fields.Length > 12
            && long.TryParse(fields[11], NumberStyles.None, CultureInfo.InvariantCulture, out var user)
            && long.TryParse(fields[12], NumberStyles.None, CultureInfo.InvariantCulture, out var system)
            ? TimeSpan.FromSeconds((user + system) / 100.0)
            : null;
    }
}
