using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Core.Tests.Runtime;

/// <summary>
/// Ctrl+C deletes an analyze's scratch run at once, while the thread extracting the zip into it may be between two
/// entries. Neither may leave a folder behind: the extraction does not make the deleted folder again, and a folder a
/// worker made again anyway is deleted again at the command's end (it has no owner marker, so nothing else would).
/// </summary>
public sealed class ScratchRemovedUnderAWorkerTests
{
    [Fact]
    public void The_extraction_makes_folders_below_its_root_but_not_a_root_that_was_deleted()
    {
        var root = Path.Combine(TestData.TempFolder(), "bundle");
        Directory.CreateDirectory(root);
        BundleZipExtractor.MakeFolders(root, Path.Combine(root, "phases", "load", "many"));
        Assert.True(Directory.Exists(Path.Combine(root, "phases", "load", "many")));

        Directory.Delete(root, recursive: true);
        Assert.ThrowsAny<IOException>(() => BundleZipExtractor.MakeFolders(root, Path.Combine(root, "phases", "load", "many")));
        Assert.False(Directory.Exists(root));
    }

    [Fact]
    public void A_run_folder_a_worker_made_again_after_its_deletion_is_deleted_again()
    {
        var run = RuntimeFolder.Run("analyze", "w" + Guid.NewGuid().ToString("N")[..9]);
        run.Dispose();
        Assert.True(run.IsDeleted);

        // What the old extraction did with the next entry: every folder up to the entry's made again.
        Directory.CreateDirectory(Path.Combine(run.Path, "bundle", "phases", "load", "many"));
        File.WriteAllText(Path.Combine(run.Path, "bundle", "phases", "load", "many", "n00001.txt"), "x");

        run.Dispose();
        Assert.False(Directory.Exists(run.Path));
    }
}
