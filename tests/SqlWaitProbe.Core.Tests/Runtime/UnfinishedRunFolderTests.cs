using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Core.Tests.Runtime;

/// <summary>
/// A run folder is made under a name that carries its maker's pid and start time and renamed once its owner marker is
/// in: a probe killed in between leaves a folder 'probe cleanup' can tell is unfinished and whose, and removes only
/// while that maker is gone and the folder is still this user's private one.
/// </summary>
public sealed class UnfinishedRunFolderTests
{
    [Fact]
    public void A_made_run_folder_has_its_marker_under_its_final_name_and_leaves_no_unfinished_folder()
    {
        var runId = "u" + Guid.NewGuid().ToString("N")[..9];
        using var run = RuntimeFolder.Run("capture", runId);

        Assert.StartsWith($"capture-{runId}-", Path.GetFileName(run.Path));
        Assert.Equal(runId, TrustedJson.Read<RunMarker>(Path.Combine(run.Path, RunMarker.FileName))!.RunId);
        Assert.DoesNotContain(Directory.GetDirectories(Path.GetDirectoryName(run.Path)!),
            d => RunFolder.UnfinishedOwner(Path.GetFileName(d)) is { } maker && maker.Pid == Environment.ProcessId);
    }

    [Fact]
    public async Task An_unfinished_folder_of_a_gone_probe_is_named_by_the_dry_run_and_removed()
    {
        var root = RuntimeFolder.Ensure(create: true)!;
        var gone = new ProcessIdentity(3_999_999, 12345, "/usr/bin/dotnet");
        var folder = MakeUnfinished(root, gone);
        var partial = Path.Combine(folder, RunMarker.FileName + ".1a2b3c4d.tmp");
        File.WriteAllText(partial, "{\"runId\":");

        var cleaner = new RuntimeCleaner();
        var leftover = Assert.Single(await cleaner.FindAsync(CancellationToken.None), l => l.Id == folder);
        Assert.Contains("probe pid 3999999 was still making", leftover.Description);
        Assert.Equal(["delete " + partial, "delete folder " + folder], leftover.Actions);

        Assert.Equal("deleted " + folder, await cleaner.RemoveAsync(leftover, CancellationToken.None));
        Assert.False(Directory.Exists(folder));
    }

    [Fact]
    public async Task An_unfinished_folder_whose_maker_still_runs_is_left_alone()
    {
        var root = RuntimeFolder.Ensure(create: true)!;
        var folder = MakeUnfinished(root, ProcessIdentity.Current);
        try
        {
            Assert.DoesNotContain(await new RuntimeCleaner().FindAsync(CancellationToken.None), l => l.Id == folder);
            Assert.True(Directory.Exists(folder));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task An_unfinished_folder_open_to_others_is_left_alone_with_the_reason()
    {
        if (!OperatingSystem.IsLinux())
        {
            // Off Linux the folder's ACL, not its mode, keeps it private.
            return;
        }

        var root = RuntimeFolder.Ensure(create: true)!;
        var folder = MakeUnfinished(root, new ProcessIdentity(3_999_998, 1, "/usr/bin/dotnet"));
        File.SetUnixFileMode(folder, (UnixFileMode)0x1FF);
        try
        {
            var cleaner = new RuntimeCleaner();
            Assert.DoesNotContain(await cleaner.FindAsync(CancellationToken.None), l => l.Id == folder);
            Assert.Contains(cleaner.LeftAlone, l => l.StartsWith(folder + ": its mode is 777", StringComparison.Ordinal));
            Assert.True(Directory.Exists(folder));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static string MakeUnfinished(string root, ProcessIdentity maker)
    {
        var folder = Path.Combine(root, RunFolder.UnfinishedName(maker, Guid.NewGuid().ToString("N")[..6]));
        Assert.True(PosixFile.MakeDirectory(folder, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute));
        return folder;
    }
}
