using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>capture -o</c> into a folder that already holds something: refused unless <c>--force</c> (exit 2, one line naming
/// what is in the way); an existing bundle is never overwritten; with <c>--force</c> the capture lists and packs only
/// the files it wrote.
/// </summary>
public sealed class CaptureOutputFolderTests
{
    [Theory]
    [InlineData("postgres")]
    [InlineData("sqlserver")]
    public async Task A_non_empty_folder_that_is_not_a_bundle_is_refused_without_force_and_left_as_it_was(string engine)
    {
        var dir = Planted();
        var before = Snapshot(dir);

        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), [.. Capture(engine), "-o", dir]);

        Assert.Equal(2, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains($"'{dir}' is not empty and is not a probe bundle (it holds .ssh, notes.txt)", line);
        Assert.Contains("pass --force", line);
        Assert.Contains("choose an empty or new folder with -o", line);
        Assert.Equal(string.Empty, stdout);
        Assert.Equal(before, Snapshot(dir));
    }

    [Fact]
    public async Task An_existing_bundle_is_never_overwritten_even_with_force()
    {
        var dir = Path.Combine(TestData.TempFolder(), "bundle");
        var (first, _, firstErr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(120), [.. Capture("postgres"), "--no-analyze", "-o", dir]);
        Assert.True(first == 0, firstErr);
        var before = Snapshot(dir);

        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), [.. Capture("postgres"), "--force", "-o", dir]);

        Assert.Equal(2, exit);
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("already holds a capture bundle (manifest.json); a capture never overwrites one, even with --force", line);
        Assert.Equal(before, Snapshot(dir));
    }

    [Fact]
    public async Task Force_does_not_let_a_capture_mix_with_files_of_the_names_it_writes()
    {
        var dir = Planted();
        Directory.CreateDirectory(Path.Combine(dir, "phases", "load"));
        File.WriteAllText(Path.Combine(dir, "phases", "load", "executions.csv"), "not mine\n");
        var before = Snapshot(dir);

        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(60), [.. Capture("postgres"), "--force", "-o", dir]);

        Assert.Equal(2, exit);
        Assert.Contains("holds phases, which a capture writes; even with --force", Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
        Assert.Equal(before, Snapshot(dir));
    }

    [Fact]
    public async Task With_force_the_capture_lists_and_packs_only_the_files_it_wrote()
    {
        var dir = Planted();
        var key = Path.Combine(dir, ".ssh", "id_rsa");

        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(120), [.. Capture("postgres"), "--force", "-o", dir]);

        Assert.True(exit == 0, stderr);
        Assert.Equal("-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n", File.ReadAllText(key));
        Assert.Equal("my notes\n", File.ReadAllText(Path.Combine(dir, "notes.txt")));
        var manifest = CaptureBundle.ReadManifest(Path.Combine(dir, BundlePaths.Manifest));
        Assert.Equal(BundleStatus.Complete, manifest.Status);
        Assert.Contains(manifest.Files, f => f.Path == BundlePaths.Executions("load"));
        Assert.All(manifest.Files, f => Assert.True(f.Path is BundlePaths.Log or BundlePaths.WorkloadSql || f.Path.StartsWith("phases/", StringComparison.Ordinal), f.Path));

        var zip = Path.Combine(TestData.TempFolder(), "b.zip");
        var (packed, _, packErr) = await InProcessProbe.RunAsync("pack", dir, "-o", zip);
        Assert.True(packed == 0, packErr);
        using var archive = ZipFile.OpenRead(zip);
        Assert.DoesNotContain(archive.Entries, e => e.FullName.Contains("id_rsa", StringComparison.Ordinal) || e.FullName.Contains("notes", StringComparison.Ordinal));
        Assert.Contains(archive.Entries, e => e.FullName.EndsWith("executions.csv", StringComparison.Ordinal));
    }

    private static string[] Capture(string engine) => engine == "postgres"
        ? ["capture", "--sql", TestData.IdleWorkload(), "--threads", "1", "--duration", "2s", "--no-baseline", "--cpu", "none"]
        : ["capture", "--engine", "sqlserver", "--server", "Server=127.0.0.1,1;Connect Timeout=2", "--workload", "hashbytes", "--duration", "2s", "--cpu", "none"];

    // A folder as a user's home might look: a private key and a note.
    private static string Planted()
    {
        var dir = Path.Combine(TestData.TempFolder(), "home");
        Directory.CreateDirectory(Path.Combine(dir, ".ssh"));
        File.WriteAllText(Path.Combine(dir, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n");
        File.WriteAllText(Path.Combine(dir, "notes.txt"), "my notes\n");
        return dir;
    }

    private static string Snapshot(string dir) => string.Join("\n", Directory.EnumerateFiles(dir, "*", SearchOption.AllDirectories)
        .Order(StringComparer.Ordinal)
        .Select(f => $"{Path.GetRelativePath(dir, f)} {new FileInfo(f).Length} {File.GetLastWriteTimeUtc(f).Ticks}"));
}
