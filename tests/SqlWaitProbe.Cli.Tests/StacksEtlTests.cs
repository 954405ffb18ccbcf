using System.Diagnostics;
using System.IO.Compression;
using System.Text.Json;
using System.Xml.Linq;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Every stacks verb on the two real PerfView traces in ../shared/data/etl, as .etl.zip (as PerfView writes them)
/// and as the plain .etl inside: the content decides, on Linux, with no Windows API.
/// </summary>
public sealed class StacksEtlTests
{
    private static readonly string X64 = SharedEtl("perfview__net.4.5.2.x64.etl.zip");
    private static readonly string X86 = SharedEtl("perfview__net.4.5.2.x86.etl.zip");

    [Fact]
    public async Task Modules_of_the_readme_example_name_the_jit_compiled_code_by_its_assembly()
    {
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("stacks", "modules", X64, "--format", "json");
        Assert.True(exit == 0, stderr);
        using var doc = JsonDocument.Parse(stdout);
        var test = doc.RootElement.EnumerateArray().Where(e => e.GetProperty("process").GetString() == "Test.x64").ToArray();

        // The test program spends its time in DateTime.Now: mscorlib code the JIT compiled, which the trace's runtime events name.
        Assert.Equal("mscorlib", test[0].GetProperty("module").GetString());
        Assert.InRange(test[0].GetProperty("exclusiveShare").GetDouble(), 0.8, 0.95);
        Assert.Contains(test, e => e.GetProperty("module").GetString() == "ntoskrnl" && e.GetProperty("kernel").GetBoolean());
        // Code the JIT compiled at an address no method event covers lies in no image: it is [jit], user mode, not unknown.
        Assert.Contains(test, e => e.GetProperty("module").GetString() == "[jit]" && !e.GetProperty("kernel").GetBoolean() && e.GetProperty("exclusiveWeight").GetInt64() > 0);
        Assert.DoesNotContain(doc.RootElement.EnumerateArray(), e => e.GetProperty("process").GetString() == "Idle" && e.GetProperty("exclusiveWeight").GetInt64() > 200);

        // A customer's trace opens on the process that used the CPUs, not on the alphabet's first (Idle's few
        // interrupt samples): processes come heaviest first.
        var order = doc.RootElement.EnumerateArray().Select(e => e.GetProperty("process").GetString()).Distinct().ToArray();
        Assert.Equal("Test.x64", order[0]);
        Assert.NotEqual("Idle", order[0]);

        // The Idle process's samples are counted apart, on stderr: stdout stays JSON.
        Assert.Contains("6320 CPU samples of 13 processes; 73208 samples of the Idle process", stderr);
    }

    [Fact]
    public async Task A_flame_graph_of_the_32_bit_trace_shows_the_managed_call_path()
    {
        var output = Path.Combine(TestData.TempFolder(), "x86.svg");
        var (exit, _, stderr) = await InProcessProbe.RunAsync("stacks", "flamegraph", X86, "-o", output, "--process", "Test.x86");
        Assert.True(exit == 0, stderr);
        var svg = File.ReadAllText(output);
        Assert.Equal("svg", XDocument.Parse(svg).Root!.Name.LocalName);
        Assert.Contains(">Test.Program.Main<", svg);
        Assert.Contains(">System.DateTime.get_Now<", svg);
        Assert.Contains("wow64", svg);
    }

    [Fact]
    public async Task The_plain_etl_and_its_zip_fold_alike_and_process_ids_select_one_process()
    {
        var etl = Path.Combine(TestData.TempFolder(), "trace.bin");
        using (var zip = ZipFile.OpenRead(X64))
        {
            zip.Entries.Single(e => e.Name.EndsWith(".etl", StringComparison.Ordinal)).ExtractToFile(etl);
        }

        var fromZip = await InProcessProbe.RunAsync("stacks", "fold", X64, "--process", "3676");
        var fromEtl = await InProcessProbe.RunAsync("stacks", "fold", etl, "--process", "Test.x64");
        Assert.Equal(0, fromZip.Exit);
        Assert.Equal(fromZip.Out, fromEtl.Out);
        var folded = StacksCli.ParseFolded(fromZip.Out);
        Assert.Equal(5129, folded.Values.Sum());
        Assert.True(folded.Where(e => e.Key.StartsWith("Test.x64;ntdll!ntdll;", StringComparison.Ordinal)).Sum(e => e.Value) > 0.95 * 5129);
        Assert.Contains(folded.Keys, k => k.EndsWith("_[k]", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Addresses_keep_each_frame_as_module_and_offset()
    {
        var (exit, stdout, _) = await InProcessProbe.RunAsync("stacks", "fold", X86, "--addresses", "--process", "Test.x86");
        Assert.Equal(0, exit);
        var top = StacksCli.ParseFolded(stdout).MaxBy(e => e.Value).Key;
        Assert.Matches(@"^Test\.x86;ntdll!0x[0-9a-f]+;ntdll!0x[0-9a-f]+;mscoree!0x[0-9a-f]+;", top);
        Assert.Contains("test.x86!Test.Program.Main_[j]", top);
    }

    [Fact]
    public async Task Every_other_verb_reads_a_trace()
    {
        var temp = TestData.TempFolder();
        foreach (var args in new[]
        {
            new[] { "speedscope", X64, "-o", Path.Combine(temp, "s.json") },
            ["pprof", X64, "-o", Path.Combine(temp, "p.pb.gz")],
            ["chrome-trace", X86, "-o", Path.Combine(temp, "c.json"), "--process", "Test.x86"],
            ["diff", X64, X86, "-o", Path.Combine(temp, "d.svg")],
            ["focus", X64, "--focus", "mscorlib!System.DateTime.get_Now", "--format", "json"],
        })
        {
            var (exit, _, stderr) = await InProcessProbe.RunAsync(["stacks", .. args]);
            Assert.True(exit == 0, string.Join(' ', args) + ": " + stderr);
        }

        Assert.Contains("Test.Program.Main", File.ReadAllText(Path.Combine(temp, "s.json")));
        Assert.True(new FileInfo(Path.Combine(temp, "p.pb.gz")).Length > 1000);
    }

    [Fact]
    public async Task A_process_the_trace_does_not_have_is_bad_input_that_lists_those_it_has()
    {
        var (exit, _, stderr) = await InProcessProbe.RunAsync("stacks", "modules", X64, "--process", "sqlservr");
        Assert.Equal(2, exit);
        Assert.Contains("no samples of a process named or numbered 'sqlservr'; the trace has: Test.x64, PerfView", stderr);
        Assert.Single(stderr.Trim().Split('\n'));
    }

    [Fact]
    public async Task A_damaged_trace_is_one_line_naming_the_file_and_byte()
    {
        var bytes = File.ReadAllBytes(X64);
        var etl = Path.Combine(TestData.TempFolder(), "cut.etl");
        using (var zip = ZipFile.OpenRead(X64))
        using (var entry = zip.Entries.Single(e => e.Name.EndsWith(".etl", StringComparison.Ordinal)).Open())
        using (var output = File.Create(etl))
        {
            var buffer = new byte[1_000_000];
            entry.ReadExactly(buffer);
            output.Write(buffer);
        }

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("stacks", "modules", etl);
        Assert.Equal(2, exit);
        Assert.Equal(string.Empty, stdout);
        Assert.Matches(@"^probe: .*cut\.etl: at byte \d+: .*truncated", stderr.Trim());
        Assert.Single(stderr.Trim().Split('\n'));
        Assert.True(bytes.Length > 0);
    }

    [Fact]
    public async Task A_zip_without_a_trace_is_bad_input()
    {
        var zipPath = Path.Combine(TestData.TempFolder(), "notes.zip");
        using (var zip = ZipFile.Open(zipPath, ZipArchiveMode.Create))
        {
            using var writer = new StreamWriter(zip.CreateEntry("LogFile.txt").Open());
            writer.Write("no trace here");
        }

        var (exit, _, stderr) = await InProcessProbe.RunAsync("stacks", "fold", zipPath);
        Assert.Equal(2, exit);
        Assert.Contains("the zip holds no .etl file", stderr);
    }

    [Fact]
    public async Task A_piped_etl_zip_reads_like_the_file()
    {
        var direct = await InProcessProbe.RunAsync("stacks", "fold", X86, "--process", "Test.x86");
        var info = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true };
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add($"set -o pipefail; cat '{X86}' | dotnet '{ProbeProcess.Dll}' stacks fold - --process Test.x86");
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync(new CancellationTokenSource(TimeSpan.FromMinutes(2)).Token);
        Assert.True(process.ExitCode == 0, await stderr);
        Assert.Equal(direct.Out, await stdout);
    }

    [Fact]
    public async Task Process_selects_one_process_of_perf_and_folded_input_too()
    {
        var perf = TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz");
        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("stacks", "fold", perf, "--process", "postgres");
        Assert.True(exit == 0, stderr);
        Assert.All(StacksCli.ParseFolded(stdout).Keys, k => Assert.StartsWith("postgres;", k, StringComparison.Ordinal));

        var folded = Path.Combine(TestData.TempFolder(), "two.folded");
        File.WriteAllText(folded, "app;main;work 5\nother;main;idle 3\n");
        var speedscope = Path.Combine(TestData.TempFolder(), "app.json");
        var (convert, _, convertErr) = await InProcessProbe.RunAsync("stacks", "speedscope", folded, "-o", speedscope, "--process", "app");
        Assert.True(convert == 0, convertErr);
        var text = File.ReadAllText(speedscope);
        Assert.Contains("work", text);
        Assert.DoesNotContain("idle", text);

        var (missing, _, missingErr) = await InProcessProbe.RunAsync("stacks", "fold", folded, "--process", "nope");
        Assert.Equal(2, missing);
        Assert.Contains("no process named 'nope'; the input has: app, other", missingErr);
    }

    private static string SharedEtl(string file) => Path.GetFullPath(Path.Combine(TestData.RepoRoot, "..", "shared", "data", "etl", file));
}
