using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// An output the command cannot use (a file where a folder is written, a device, an empty name, a name the file
/// system cannot hold with the temporary name written first, a folder inside an input) is a user mistake: exit 2 and
/// one line saying what to do, checked in one place before anything is read or written. These used to end in
/// "internal error" (exit 70), or, for an output inside an input, in a bundle that was refused from then on.
/// </summary>
public sealed class OutputMistakeTests
{
    private static readonly string Name256 = new('a', 256);
    private static readonly string Name245 = new('b', 245);

    public static TheoryData<string, string> Cases() => new()
    {
        { "compare BUNDLE BUNDLE -o FILE", "names an existing file, but a report is a folder" },
        { "compare BUNDLE BUNDLE -o /dev/null", "names a device, but a report is a folder" },
        { "compare BUNDLE BUNDLE -o EMPTY", "-o is empty; give a folder name" },
        { "analyze BUNDLE -o EMPTY", "-o is empty; give a folder name" },
        { "analyze BUNDLE -o /dev/null", "names a device, but a report is a folder" },
        { "pack BUNDLE -o EMPTY", "-o is empty; give a file name" },
        { "pack BUNDLE -o /dev/null", "names a device, not a file" },
        { "pack BUNDLE -o /dev/null --force", "names a device, not a file" },
        { "pack BUNDLE -o DIR/", "ends in a '/'" },
        { "stacks flamegraph FOLDED -o EMPTY", "-o is empty; give a file name" },
        { "stacks fold FOLDED -o EMPTY", "-o is empty; give a file name" },
        { "xe read XEL -o EMPTY", "-o is empty; give a file name" },
        { "stacks flamegraph FOLDED -o NAME256", "a name of 256 bytes; a file system allows at most 255 bytes per name" },
        { "stacks flamegraph FOLDED -o NAME245", "the file name is 245 bytes; at most 241 bytes here" },
        { "pack BUNDLE -o NAME245", "the file name is 245 bytes; at most 241 bytes here" },
        { "xe read XEL -o NAME245", "the file name is 245 bytes" },
        { "analyze BUNDLE -o NAME256", "a name of 256 bytes" },
        { "compare BUNDLE BUNDLE -o NAME256", "a name of 256 bytes" },
        { "xe read DIR", "is a folder, not a file" },
        { "xe read MISSING", "file not found" },
        { "stacks fold DIR", "is a folder, not a file" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task An_unusable_output_or_input_is_exit_2_with_one_line_and_nothing_written(string command, string expected)
    {
        var folder = TestData.TempFolder("probe-output-mistake");
        var args = Arguments(command, folder);
        var before = Listing(folder);

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync(args);

        Assert.True(exit == 2, $"{command}: exit {exit}\n{stderr}\n{stdout}");
        Assert.Contains(expected, stderr);
        Assert.Single(stderr.Trim().Split('\n'));
        Assert.StartsWith("probe: ", stderr);
        Assert.DoesNotContain("internal error", stderr);
        Assert.Equal(before, Listing(folder));
        Assert.True(PosixFile.Stat("/dev/null") is { IsSpecial: true }, "/dev/null is still the device");
    }

    [Theory]
    [InlineData("stacks flamegraph FOLDED -o /dev/null")]
    [InlineData("stacks fold FOLDED -o /dev/null")]
    [InlineData("xe read XEL -o /dev/null")]
    public async Task Verbs_that_stream_still_write_to_a_device_in_place(string command)
    {
        var folder = TestData.TempFolder("probe-output-mistake");

        var (exit, _, stderr) = await InProcessProbe.RunAsync(Arguments(command, folder));

        Assert.True(exit == 0, stderr);
        Assert.True(PosixFile.Stat("/dev/null") is { IsSpecial: true }, "/dev/null is still the device");
        Assert.Empty(Directory.GetFiles("/dev", ".null.*"));
    }

    [Fact]
    public async Task An_output_inside_an_input_bundle_is_refused_before_anything_is_written_and_the_bundle_stays_usable()
    {
        var folder = TestData.TempFolder("probe-output-inside");
        var bundle = HostileCorpus.Healthy().Write(folder);
        var other = HostileCorpus.Healthy().Write(Path.Combine(folder, "other"));
        var before = Listing(bundle);

        var analyze = await InProcessProbe.RunAsync("analyze", bundle, "-o", Path.Combine(bundle, "phases", "load"));
        var compare = await InProcessProbe.RunAsync("compare", other, bundle, "-o", Path.Combine(bundle, "phases", "load"));
        var compareNew = await InProcessProbe.RunAsync("compare", other, bundle, "-o", Path.Combine(bundle, "cmp"));
        var pack = await InProcessProbe.RunAsync("pack", bundle, "-o", Path.Combine(bundle, "phases", "ticket.zip"));
        var itself = await InProcessProbe.RunAsync("analyze", bundle, "-o", bundle);

        foreach (var (exit, _, stderr) in new[] { analyze, compare, compareNew, pack })
        {
            Assert.True(exit == 2, stderr);
            Assert.Contains("-o is inside the input", stderr);
            Assert.Single(stderr.Trim().Split('\n'));
        }

        Assert.Equal(2, itself.Exit);
        Assert.Contains("-o names the input", itself.Err);
        Assert.Equal(before, Listing(bundle));

        // Nothing was left in the bundle, so it still verifies and analyses into its own report folder, the default.
        var (ok, _, err) = await InProcessProbe.RunAsync("analyze", bundle, "-o", Path.Combine(bundle, "report"));
        Assert.True(ok == 0, err);
    }

    [Fact]
    public async Task A_stack_verb_never_writes_over_its_own_input_even_with_force()
    {
        var folder = TestData.TempFolder("probe-output-inside");
        var input = Path.Combine(folder, "in.folded");
        File.WriteAllText(input, "postgres;a;b 5\n");
        var link = Path.Combine(folder, "link.folded");
        File.CreateSymbolicLink(link, input);

        var same = await InProcessProbe.RunAsync("stacks", "fold", input, "-o", input, "--force");
        var throughLink = await InProcessProbe.RunAsync("stacks", "flamegraph", input, "-o", link, "--force");
        var diff = await InProcessProbe.RunAsync("stacks", "diff", input, input, "--folded", "-o", input, "--force");

        foreach (var (exit, _, stderr) in new[] { same, throughLink, diff })
        {
            Assert.True(exit == 2, stderr);
            Assert.Contains("-o names the input", stderr);
        }

        Assert.Equal("postgres;a;b 5\n", File.ReadAllText(input));
    }

    [Fact]
    public async Task A_sql_file_too_large_or_a_device_is_exit_2_without_reading_it()
    {
        var folder = TestData.TempFolder("probe-sql-file");
        var big = Path.Combine(folder, "big.sql");
        using (var stream = File.Create(big))
        {
            // Sparse: 1 GiB that takes no disk and, read whole, took the capture past 2 GB of memory.
            stream.SetLength(1L << 30);
        }

        foreach (var engine in new[] { "postgres", "sqlserver" })
        {
            var server = engine == "sqlserver" ? new[] { "--server", "Server=db;Integrated Security=true" } : [];
            var (exit, _, stderr) = await InProcessProbe.RunAsync(["capture", "--engine", engine, .. server, "--sql", big, "--dry-run"]);
            Assert.True(exit == 2, $"{engine}: {stderr}");
            Assert.Contains("the SQL file is 1024 MiB; a workload's SQL is at most 16 MiB", stderr);

            (exit, _, stderr) = await InProcessProbe.RunAsync(["capture", "--engine", engine, .. server, "--sql", "/dev/zero", "--dry-run"]);
            Assert.True(exit == 2, $"{engine}: {stderr}");
            Assert.Contains("is not a regular file", stderr);
        }
    }

    [RootFact]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public async Task A_capture_into_a_folder_the_user_cannot_write_is_exit_2_before_anything_starts()
    {
        // Root may write anywhere, so the user here is nobody, as a capture by a DBA's own account would be.
        var folder = TestData.TempFolder("probe-readonly");
        var readOnly = Path.Combine(folder, "read-only");
        Directory.CreateDirectory(readOnly);
        File.SetUnixFileMode(folder, (UnixFileMode)0x1ED);
        File.SetUnixFileMode(readOnly, (UnixFileMode)0x1ED);
        var home = Path.Combine(folder, "home");
        Directory.CreateDirectory(home);
        File.SetUnixFileMode(home, (UnixFileMode)0x1FF);

        var info = new System.Diagnostics.ProcessStartInfo("setpriv") { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var a in new[] { "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", "env", "HOME=" + home, "CI=1", "dotnet", ProbeProcess.Dll,
            "capture", "--engine", "postgres", "--workload", "hashbytes", "--no-analyze", "-o", Path.Combine(readOnly, "bundle") })
        {
            info.ArgumentList.Add(a);
        }

        using var process = System.Diagnostics.Process.Start(info)!;
        var stderr = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();

        Assert.True(process.ExitCode == 2, $"exit {process.ExitCode}: {stderr}");
        Assert.Contains($"cannot write in '{readOnly}'", stderr);
        Assert.Contains("choose a writable -o", stderr);
        Assert.Single(stderr.Trim().Split('\n'));
        Assert.Empty(Directory.GetFileSystemEntries(readOnly));
    }

    private static string[] Arguments(string command, string folder)
    {
        var bundle = new Lazy<string>(() => HostileCorpus.Healthy().Write(Path.Combine(folder, "in")));
        var folded = Path.Combine(folder, "in.folded");
        File.WriteAllText(folded, "postgres;a;b 5\n");
        File.WriteAllText(Path.Combine(folder, "FILE"), "a file");
        Directory.CreateDirectory(Path.Combine(folder, "DIR"));
        return command.Split(' ').Select(token => token switch
        {
            "BUNDLE" => bundle.Value,
            "FOLDED" => folded,
            "XEL" => TestData.Path("xel/sqltoolsservice__TestXel_0.xel"),
            "FILE" => Path.Combine(folder, "FILE"),
            "DIR" => Path.Combine(folder, "DIR"),
            "DIR/" => Path.Combine(folder, "DIR") + "/",
            "MISSING" => Path.Combine(folder, "missing.xel"),
            "EMPTY" => "",
            "NAME256" => Path.Combine(folder, Name256),
            "NAME245" => Path.Combine(folder, Name245),
            _ => token,
        }).ToArray();
    }

    private static string[] Listing(string folder) =>
        [.. Directory.GetFileSystemEntries(folder, "*", SearchOption.AllDirectories).Select(f => $"{f} {(File.Exists(f) ? new FileInfo(f).Length : -1)}").Order(StringComparer.Ordinal)];
}
