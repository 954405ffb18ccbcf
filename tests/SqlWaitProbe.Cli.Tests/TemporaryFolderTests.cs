using System.Diagnostics;
using System.IO.Compression;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// The folder that holds the probe's private folder (TMPDIR, or the parent of SQLWAITPROBE_RUNTIME_DIR) is checked
/// before it is used: it must exist, be absolute, and be a folder nobody but root and the user can change (or sticky,
/// as /tmp is). A bad one is an environment problem (exit 1) with one line naming the variable, said before anything
/// is written; it used to be "internal error" (exit 70), a TMPDIR another user owned was used as it was, pack built a
/// report into the bundle before failing, and capture began a bundle that only recorded the failure.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class TemporaryFolderTests
{
    private static readonly Lazy<string> Zip = new(() =>
    {
        var folder = TestData.TempFolder("probe-tmpdir");
        var root = HostileCorpus.Healthy().Write(folder);
        var zip = Path.Combine(folder, "bundle.zip");
        ZipFile.CreateFromDirectory(root, zip);
        return zip;
    });

    [Theory]
    [InlineData("/nonexistent-probe-tmpdir", "does not exist")]
    [InlineData("relative/x", "is not an absolute path")]
    [InlineData("FILE", "is not a folder")]
    public async Task A_temporary_folder_that_cannot_be_used_is_exit_1_naming_the_variable(string tmpdir, string expected)
    {
        var folder = TestData.TempFolder("probe-tmpdir");
        if (tmpdir == "FILE")
        {
            tmpdir = Path.Combine(folder, "file");
            File.WriteAllText(tmpdir, "a file, not a folder");
        }

        // A bundle folder without a report: pack would build one into it before reaching for its scratch folder.
        var bundle = HostileCorpus.Healthy().Write(Path.Combine(folder, "bundle"));
        var bundleBefore = Directory.GetFileSystemEntries(bundle, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal).ToList();
        foreach (var args in new[]
        {
            new[] { "analyze", Zip.Value, "-o", Path.Combine(folder, "report") },
            ["pack", Zip.Value, "--redact", "-o", Path.Combine(folder, "ticket.zip")],
            ["pack", bundle, "-o", Path.Combine(folder, "ticket.zip")],
            ["pack", bundle, "--redact", "-o", Path.Combine(folder, "ticket.zip")],
            ["capture", "--engine", "postgres", "--workload", "hashbytes", "-o", Path.Combine(folder, "capture")],
        })
        {
            using var probe = ProbeProcess.Start(new Dictionary<string, string> { ["TMPDIR"] = tmpdir }, args);
            var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(60));

            Assert.True(exit == 1, $"{args[0]}: exit {exit}\n{stderr}");
            Assert.Contains(expected, stderr);
            Assert.Contains("(TMPDIR)", stderr);
            Assert.Contains("Set TMPDIR to an absolute folder", stderr);
            Assert.Single(stderr.Trim().Split('\n'), l => l.StartsWith("probe:", StringComparison.Ordinal));
            Assert.DoesNotContain("internal error", stderr);
            Assert.False(Directory.Exists(Path.Combine(folder, "report")) || File.Exists(Path.Combine(folder, "ticket.zip")));
            Assert.False(Directory.Exists(Path.Combine(folder, "capture")), "a capture refused for its temporary folder begins no bundle");
            Assert.Equal(bundleBefore, Directory.GetFileSystemEntries(bundle, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal));
        }
    }

    /// <summary>
    /// The owner of a folder may rename anything in it, whoever owns the entry: here <c>nobody</c>, owning TMPDIR,
    /// swaps a root-owned private folder for one of its own, which is what could happen between the probe's check of
    /// <c>sqlwaitprobe-UID</c> and its use. So such a TMPDIR is refused, and so is one under a folder another user
    /// owns, or one anybody may write to without the sticky bit.
    /// </summary>
    [RootFact]
    public async Task A_temporary_folder_another_user_could_change_is_refused_and_left_untouched()
    {
        var folder = TestData.TempFolder("probe-tmpdir");
        var owned = Path.Combine(folder, "owned-by-nobody");
        Directory.CreateDirectory(owned);
        Run("chown", "nobody:nogroup", owned);

        // The danger, shown: a private folder of root's, mode 0700, in nobody's folder is swapped by nobody.
        var victim = Path.Combine(owned, "sqlwaitprobe-0");
        Directory.CreateDirectory(victim, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        Run("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", "sh", "-c", $"mv '{victim}' '{owned}/moved' && mkdir '{victim}'");
        Assert.Equal("nobody", Owner(victim));
        Directory.Delete(victim);
        Directory.Delete(Path.Combine(owned, "moved"));

        var under = Path.Combine(owned, "root-owned-inside");
        Directory.CreateDirectory(under);
        var open = Path.Combine(folder, "open-to-all");
        Directory.CreateDirectory(open);
        File.SetUnixFileMode(open, (UnixFileMode)0x1FF);
        var sticky = Path.Combine(folder, "sticky-like-tmp");
        Directory.CreateDirectory(sticky);
        File.SetUnixFileMode(sticky, (UnixFileMode)0x3FF);

        foreach (var (tmpdir, expected) in new[]
        {
            (owned, "belongs to uid 65534, not to root or uid 0"),
            (under, $"lies under {owned}, which belongs to uid 65534"),
            (open, "is writable by others (mode 777) without the sticky bit"),
        })
        {
            var before = Directory.GetFileSystemEntries(tmpdir);
            using var probe = ProbeProcess.Start(new Dictionary<string, string> { ["TMPDIR"] = tmpdir }, "analyze", Zip.Value, "-o", Path.Combine(folder, "report"));
            var (exit, _, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(60));

            Assert.True(exit == 1, $"{tmpdir}: exit {exit}\n{stderr}");
            Assert.Contains(expected, stderr);
            Assert.Single(stderr.Trim().Split('\n'), l => l.StartsWith("probe:", StringComparison.Ordinal));
            Assert.Equal(before, Directory.GetFileSystemEntries(tmpdir));
        }

        // A sticky folder anyone may write to, as /tmp is, keeps others from renaming the private folder: it is used.
        using (var ok = ProbeProcess.Start(new Dictionary<string, string> { ["TMPDIR"] = sticky }, "analyze", Zip.Value, "-o", Path.Combine(folder, "report")))
        {
            var (exit, _, stderr) = await ok.WaitAsync(TimeSpan.FromSeconds(120));
            Assert.True(exit == 0, stderr);
        }

        // The same rule for a private folder named by SQLWAITPROBE_RUNTIME_DIR.
        using var named = ProbeProcess.Start(new Dictionary<string, string> { ["SQLWAITPROBE_RUNTIME_DIR"] = Path.Combine(owned, "runtime") }, "analyze", Zip.Value, "-o", Path.Combine(folder, "report2"));
        var (namedExit, _, namedErr) = await named.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(namedExit == 1, namedErr);
        Assert.Contains("(SQLWAITPROBE_RUNTIME_DIR)", namedErr);
        Assert.False(Directory.Exists(Path.Combine(owned, "runtime")));
    }

    private static string Owner(string path)
    {
        using var process = Process.Start(new ProcessStartInfo("stat", ["-c", "%U", path]) { RedirectStandardOutput = true })!;
        var owner = process.StandardOutput.ReadToEnd().Trim();
        process.WaitForExit();
        return owner;
    }

    private static void Run(string program, params string[] args)
    {
        using var process = Process.Start(new ProcessStartInfo(program, args) { RedirectStandardError = true })!;
        var error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        Assert.True(process.ExitCode == 0, $"{program} {string.Join(' ', args)}: {error}");
    }
}
