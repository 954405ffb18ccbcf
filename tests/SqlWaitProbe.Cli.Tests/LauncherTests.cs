using System.Diagnostics;
using System.Globalization;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// The <c>./probe</c> launcher of a source checkout, run for real on a copy of the checkout's sources. The .NET SDK and
/// the package tools (<c>dotnet</c>, <c>dpkg-query</c>, <c>apt-cache</c>, <c>apt-get</c>) are stand-ins on PATH: a real
/// publish takes minutes and a real install changes the machine; the stand-ins record their calls, so the test sees
/// when the launcher builds and what it installs.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class LauncherTests
{
    [Fact]
    public async Task The_launcher_rebuilds_only_when_a_source_of_the_tool_changed_and_starts_fast_after_a_test_build()
    {
        var checkout = Checkout();
        var first = await RunAsync(checkout, "--version");
        Assert.Equal(0, first.Exit);
        Assert.Equal(1, Publishes(checkout));
        Assert.Contains("probe: building", first.Err, StringComparison.Ordinal);

        var second = await RunAsync(checkout, "--version");
        Assert.Equal(1, Publishes(checkout));
        Assert.Equal("0.1.0-stand-in\n", second.Out);

        // The tool's errors reach the user through the launcher, on the first run and after.
        Assert.Contains("probe: the tool's own line on stderr", first.Err, StringComparison.Ordinal);
        Assert.Contains("probe: the tool's own line on stderr", second.Err, StringComparison.Ordinal);

        // What `scripts/test.sh` writes: every project's obj/ and bin/ (generated .cs and .props included), the test
        // projects' own folders, a results folder.
        foreach (var written in new[]
                 {
                     "src/SqlWaitProbe.Core/obj/Release/net10.0/SqlWaitProbe.Core.AssemblyInfo.cs",
                     "src/SqlWaitProbe.Core/obj/SqlWaitProbe.Core.csproj.nuget.g.props",
                     "src/SqlWaitProbe.Cli/bin/Release/net10.0/probe.dll",
                     "tests/SqlWaitProbe.Core.Tests/obj/Release/net10.0/SqlWaitProbe.Core.Tests.AssemblyInfo.cs",
                     "tests/SqlWaitProbe.Core.Tests/NewTests.cs",
                     "TestResults/run.trx",
                 })
        {
            var path = Path.Combine(checkout, written);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, "// written by a build");
        }

        var afterTests = await RunAsync(checkout, "--version");
        Assert.Equal(1, Publishes(checkout));
        Assert.DoesNotContain("building", afterTests.Err, StringComparison.Ordinal);
        // The launcher's own work (package check, source list) is measured, not raced: its CPU time does not depend on
        // what else the machine runs. The real `dotnet probe.dll --version` adds about 0.1 s (docs/performance.md).
        Assert.True(afterTests.CpuSeconds < 1, $"the launcher used {afterTests.CpuSeconds:0.00} s of CPU ({afterTests.WallSeconds:0.00} s wall)");
        Assert.True(afterTests.WallSeconds < 2, $"./probe --version took {afterTests.WallSeconds:0.00} s after a test build");

        // Each kind of source change rebuilds once: an edit, a new file, a removed file, a build setting.
        var source = Directory.EnumerateFiles(Path.Combine(checkout, "src", "SqlWaitProbe.Core"), "*.cs", SearchOption.AllDirectories)
            .First(f => !f.Contains("/obj/", StringComparison.Ordinal));
        var changes = new Action[]
        {
            () => File.AppendAllText(source, "\n// edited\n"),
            () => File.WriteAllText(Path.Combine(checkout, "src", "SqlWaitProbe.Core", "Added.cs"), "// new"),
            () => File.Delete(source),
            () => File.AppendAllText(Path.Combine(checkout, "Directory.Packages.props"), "\n"),
        };
        var expected = 1;
        foreach (var change in changes)
        {
            change();
            await RunAsync(checkout, "--version");
            Assert.Equal(++expected, Publishes(checkout));
            await RunAsync(checkout, "--version");
            Assert.Equal(expected, Publishes(checkout));
        }
    }

    [Fact]
    public async Task Launchers_started_together_after_a_source_change_build_once()
    {
        var checkout = Checkout();
        await RunAsync(checkout, "--version");
        File.AppendAllText(Directory.EnumerateFiles(Path.Combine(checkout, "src", "SqlWaitProbe.Core"), "*.cs", SearchOption.AllDirectories).First(), "\n// edited\n");

        // The stand-in's publish takes 0.5 s: the three start inside it, and the lock makes the others wait and find the tool built.
        var runs = await Task.WhenAll(Enumerable.Range(0, 3).Select(_ => RunAsync(checkout, "--version")));

        Assert.All(runs, r => Assert.Equal("0.1.0-stand-in\n", r.Out));
        Assert.Equal(2, Publishes(checkout));
    }

    [Fact]
    public async Task A_user_who_cannot_install_packages_still_runs_the_tool_and_is_told_the_command()
    {
        var checkout = Checkout(missing: ["linux-perf", "golang-go", "chromium"]);
        Assert.Equal(0, (await RunAsync(checkout, "--version")).Exit);
        OpenToEveryone(checkout);

        // As root the launcher would install; the user is the unprivileged "nobody" (a user runs as itself).
        var asUser = await RunAsync(checkout, "--version", asNobody: Environment.UserName == "root");
        Assert.Equal(0, asUser.Exit);
        Assert.Equal("0.1.0-stand-in\n", asUser.Out);
        Assert.Contains("missing: linux-perf", asUser.Err, StringComparison.Ordinal);
        Assert.Contains("apt-get install -y linux-perf", asUser.Err, StringComparison.Ordinal);
        // Test-only packages are the test script's business, not the tool's.
        Assert.DoesNotContain("golang-go", asUser.Err, StringComparison.Ordinal);
        Assert.DoesNotContain("chromium", asUser.Err, StringComparison.Ordinal);
    }

    [InstallAsRootFact]
    public async Task A_first_run_installs_only_the_tools_packages_and_keeps_the_installer_off_stdout()
    {
        var checkout = Checkout(missing: ["linux-perf", "golang-go", "chromium"]);
        var run = await RunAsync(checkout, "--version");
        Assert.Equal(0, run.Exit);
        // stdout is the tool's alone: a first `./probe … --format json` must still parse.
        Assert.Equal("0.1.0-stand-in\n", run.Out);
        Assert.Contains("Reading package lists", run.Err, StringComparison.Ordinal);
        var installs = File.ReadAllLines(Path.Combine(checkout, "calls.log")).Where(l => l.StartsWith("apt-get install", StringComparison.Ordinal)).ToArray();
        var install = Assert.Single(installs);
        Assert.Contains("linux-perf", install, StringComparison.Ordinal);
        Assert.DoesNotContain("golang-go", install, StringComparison.Ordinal);
        Assert.DoesNotContain("chromium", install, StringComparison.Ordinal);
    }

    private static int Publishes(string checkout) =>
        File.ReadAllLines(Path.Combine(checkout, "calls.log")).Count(l => l.StartsWith("dotnet publish", StringComparison.Ordinal));

    /// <summary>A copy of the launcher, its scripts and the tool's sources (no build output), with stand-ins on PATH.</summary>
    private static string Checkout(string[]? missing = null)
    {
        var root = TestData.TempFolder("probe-launcher");
        foreach (var file in new[] { "probe", "scripts/ensure-deps.sh", "Directory.Build.props", "Directory.Packages.props", "global.json" })
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.Combine(root, file))!);
            File.Copy(Path.Combine(TestData.RepoRoot, file), Path.Combine(root, file));
        }

        var src = Path.Combine(TestData.RepoRoot, "src");
        foreach (var file in Directory.EnumerateFiles(src, "*", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(src, file);
            if (relative.Split('/').Any(p => p is "obj" or "bin"))
            {
                continue;
            }

            var target = Path.Combine(root, "src", relative);
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }

        var bin = Path.Combine(root, "stand-ins");
        Directory.CreateDirectory(bin);
        var log = Path.Combine(root, "calls.log");
        File.WriteAllText(log, string.Empty);
        var gone = string.Join(' ', missing ?? []);
        Script(bin, "dotnet", $$"""
            echo "dotnet $*" >> '{{log}}'
            if [ "$1" = publish ]; then
              sleep 0.5
              while [ $# -gt 0 ]; do if [ "$1" = -o ]; then mkdir -p "$2"; echo built > "$2/probe.dll"; fi; shift; done
              exit 0
            fi
            echo 0.1.0-stand-in
            echo "probe: the tool's own line on stderr" >&2
            """);
        Script(bin, "dpkg-query", $$"""
            pkg="${@: -1}"
            for m in {{gone}}; do [ "$pkg" = "$m" ] && exit 1; done
            printf 'install ok installed'
            """);
        Script(bin, "apt-cache", "printf '%s:\\n  Installed: (none)\\n  Candidate: 1.0-1\\n' \"$2\"");
        Script(bin, "apt-get", $$"""
            echo "apt-get $*" >> '{{log}}'
            echo "Reading package lists... Done"
            """);
        return root;
    }

    private static void Script(string folder, string name, string body)
    {
        var path = Path.Combine(folder, name);
        File.WriteAllText(path, "#!/usr/bin/env bash\n" + body + "\n");
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute | UnixFileMode.GroupRead | UnixFileMode.GroupExecute | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);
    }

    private static void OpenToEveryone(string root)
    {
        foreach (var dir in Directory.EnumerateDirectories(root, "*", SearchOption.AllDirectories).Append(root))
        {
            File.SetUnixFileMode(dir, (UnixFileMode)0b111_101_101);
        }

        File.SetUnixFileMode(Path.Combine(root, "calls.log"), (UnixFileMode)0b110_110_110);
    }

    /// <summary>Runs <c>./probe ARGS</c> under bash's <c>time</c>, which reports the wall time and the CPU of the launcher and every process it waited for.</summary>
    private static async Task<(int Exit, string Out, string Err, double WallSeconds, double CpuSeconds)> RunAsync(string checkout, string args, bool asNobody = false)
    {
        var timing = Path.Combine(TestData.TempFolder("probe-launcher-time"), "time.txt");
        var info = new ProcessStartInfo(asNobody ? "setpriv" : "bash") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = checkout };
        if (asNobody)
        {
            foreach (var a in new[] { "--reuid=65534", "--regid=65534", "--clear-groups", "bash" })
            {
                info.ArgumentList.Add(a);
            }

            File.SetUnixFileMode(Path.GetDirectoryName(timing)!, (UnixFileMode)0b111_111_111);
        }

        info.ArgumentList.Add("-c");
        info.ArgumentList.Add($"TIMEFORMAT='%R %U %S'; {{ time ./probe {args} 2>&3; }} 3>&2 2>'{timing}'");
        info.Environment["PATH"] = Path.Combine(checkout, "stand-ins") + ":" + Environment.GetEnvironmentVariable("PATH");
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(1));
        var times = File.ReadAllText(timing).Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(t => double.Parse(t, CultureInfo.InvariantCulture)).ToArray();
        return (process.ExitCode, await stdout, await stderr, times[0], times[1] + times[2]);
    }
}
