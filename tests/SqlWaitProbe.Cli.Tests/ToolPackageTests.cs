using System.Diagnostics;
using System.IO.Compression;
using System.Runtime.InteropServices;
using System.Xml.Linq;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Runs the README's install commands as a user would (into a temporary tool path instead of the global one) and
/// checks what the installed tool weighs and does. Packs once, for this machine's platform only.
/// </summary>
public sealed class ToolPackageTests
{
    private const long MaxDownloadBytes = 45L * 1024 * 1024;
    private const long MaxInstalledBytes = 150L * 1024 * 1024;

    [Fact]
    public async Task The_readme_install_commands_give_a_lean_working_tool()
    {
        var commands = ReadmeInstallCommands();
        Assert.Equal(4, commands.Count);
        Assert.StartsWith("dotnet pack ", commands[0], StringComparison.Ordinal);
        Assert.StartsWith("dotnet tool install --global ", commands[1], StringComparison.Ordinal);
        var temp = TestData.TempFolder("probe-pack");
        var feed = Path.Combine(temp, "nupkg");
        var tools = Path.Combine(temp, "tools");
        var rid = RuntimeInformation.RuntimeIdentifier;

        var pack = await RunAsync("dotnet", Words(commands[0].Replace("./artifacts/nupkg", feed, StringComparison.Ordinal)).Skip(1)
            .Concat(["-p:ToolPackageRuntimeIdentifiers=" + rid, "--nologo", "-v", "quiet"]), TestData.RepoRoot, TimeSpan.FromMinutes(8));
        Assert.True(pack.Exit == 0, pack.Out + pack.Err);

        var platformPackage = Path.Combine(feed, $"SqlWaitProbe.{rid}.0.1.0.nupkg");
        Assert.True(File.Exists(platformPackage), string.Join(", ", Directory.GetFiles(feed).Select(Path.GetFileName)));
        var pointer = Path.Combine(feed, "SqlWaitProbe.0.1.0.nupkg");
        var download = new FileInfo(pointer).Length + new FileInfo(platformPackage).Length;
        Assert.True(download <= MaxDownloadBytes, $"the install downloads {download / 1048576.0:0.0} MB; at most 45 MB");
        AssertPackageMetadata(pointer);
        AssertNoThirdPartySymbols(platformPackage);

        var install = await RunAsync("dotnet", Words(commands[1].Replace("./artifacts/nupkg", feed, StringComparison.Ordinal)
            .Replace("--global", "--tool-path " + tools, StringComparison.Ordinal)).Skip(1), temp, TimeSpan.FromMinutes(3));
        Assert.True(install.Exit == 0, install.Out + install.Err);
        var installed = new DirectoryInfo(tools).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length);
        Assert.True(installed <= MaxInstalledBytes, $"the installed tool takes {installed / 1048576.0:0.0} MB; at most 150 MB");

        var probe = Path.Combine(tools, "probe");
        var version = await RunAsync(probe, Words(commands[2]).Skip(1), temp, TimeSpan.FromMinutes(1));
        Assert.Equal(0, version.Exit);
        Assert.StartsWith("0.1.0", version.Out.Trim(), StringComparison.Ordinal);

        var fold = await RunAsync(probe, Words(commands[3]).Skip(1), TestData.RepoRoot, TimeSpan.FromMinutes(1));
        Assert.True(fold.Exit == 0, fold.Err);
        var expected = StacksCli.ParseFolded(File.ReadAllText(TestData.Path("folded/expected-from-perf/inferno-default/flamegraph__perf-dd-stacks-01.folded")));
        Assert.Equal(StacksCli.Describe(expected), StacksCli.Describe(StacksCli.ParseFolded(fold.Out)));
    }

    private static void AssertPackageMetadata(string package)
    {
        using var zip = ZipFile.OpenRead(package);
        var nuspec = zip.Entries.Single(e => e.FullName.EndsWith(".nuspec", StringComparison.Ordinal));
        using var stream = nuspec.Open();
        var metadata = XDocument.Load(stream).Root!.Elements().Single(e => e.Name.LocalName == "metadata");
        string? Value(string name) => metadata.Elements().FirstOrDefault(e => e.Name.LocalName == name)?.Value;
        Assert.Equal("MIT", Value("license"));
        Assert.Equal("README.md", Value("readme"));
        Assert.False(string.IsNullOrWhiteSpace(Value("tags")));
        var repository = metadata.Elements().Single(e => e.Name.LocalName == "repository");
        Assert.StartsWith("https://", repository.Attribute("url")?.Value, StringComparison.Ordinal);
        Assert.Contains(zip.Entries, e => e.FullName == "README.md");
    }

    private static void AssertNoThirdPartySymbols(string package)
    {
        using var zip = ZipFile.OpenRead(package);
        var symbols = zip.Entries.Where(e => e.FullName.EndsWith(".pdb", StringComparison.OrdinalIgnoreCase)).Select(e => Path.GetFileName(e.FullName)).ToArray();
        Assert.All(symbols, s => Assert.True(s == "probe.pdb" || s.StartsWith("SqlWaitProbe.", StringComparison.Ordinal), s + " is not the probe's own"));
        var settings = zip.Entries.Single(e => e.FullName.EndsWith("DotnetToolSettings.xml", StringComparison.Ordinal));
        Assert.DoesNotContain(zip.Entries, e => e.Name is "msdia140.dll" or "KernelTraceControl.dll" && !RuntimeInformation.IsOSPlatform(OSPlatform.Windows));
        Assert.NotNull(settings);
    }

    private static List<string> ReadmeInstallCommands()
    {
        var readme = File.ReadAllLines(Path.Combine(TestData.RepoRoot, "README.md"));
        var start = Array.FindIndex(readme, l => l.Contains("To install `probe` as a", StringComparison.Ordinal));
        Assert.True(start >= 0, "README has no install section");
        var open = Array.FindIndex(readme, start, l => l.StartsWith("```", StringComparison.Ordinal));
        var close = Array.FindIndex(readme, open + 1, l => l.StartsWith("```", StringComparison.Ordinal));
        return readme[(open + 1)..close].Where(l => l.Trim().Length > 0).ToList();
    }

    private static IEnumerable<string> Words(string command) => command.Split(' ', StringSplitOptions.RemoveEmptyEntries);

    private static async Task<(int Exit, string Out, string Err)> RunAsync(string file, IEnumerable<string> args, string folder, TimeSpan timeout)
    {
        var info = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = folder };
        foreach (var a in args)
        {
            info.ArgumentList.Add(a);
        }

        // The installed tool finds the runtime as a user's shell would.
        info.Environment["DOTNET_ROOT"] = Path.GetDirectoryName(Environment.ProcessPath) is { } dir && File.Exists(Path.Combine(dir, "dotnet")) ? dir : info.Environment["DOTNET_ROOT"];
        info.Environment["CI"] = "1";
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{file} {string.Join(' ', args)} did not finish within {timeout.TotalMinutes} min");
        }

        return (process.ExitCode, await stdout, await stderr);
    }
}
