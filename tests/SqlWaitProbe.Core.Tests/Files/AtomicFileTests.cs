using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Core.Tests.Files;

public sealed class AtomicFileTests
{
    [Fact]
    public void Replaces_the_file_and_leaves_nothing_else_in_the_folder()
    {
        var folder = TestData.TempFolder();
        var path = Path.Combine(folder, "series.csv");
        File.WriteAllText(path, "old\n");

        AtomicFile.WriteText(path, w => w.WriteLine("utc,series,value"));

        Assert.Equal("utc,series,value\n", File.ReadAllText(path));
        Assert.Equal([path], Directory.GetFiles(folder));
        Assert.NotEqual(0xEF, File.ReadAllBytes(path)[0]);
    }

    [Fact]
    public void A_writer_that_fails_half_way_keeps_the_old_file_and_leaves_no_temporary_file()
    {
        var folder = TestData.TempFolder();
        var path = Path.Combine(folder, "report.html");
        File.WriteAllText(path, "complete old report");

        var error = Assert.Throws<InvalidOperationException>(() => AtomicFile.WriteText(path, w =>
        {
            w.Write(new string('x', 100_000));
            throw new InvalidOperationException("renderer broke");
        }));

        Assert.Equal("renderer broke", error.Message);
        Assert.Equal("complete old report", File.ReadAllText(path));
        Assert.Equal([path], Directory.GetFiles(folder));
    }

    [Fact]
    public async Task Cancellation_while_writing_leaves_no_temporary_file()
    {
        var folder = TestData.TempFolder();
        var path = Path.Combine(folder, "perf.script.gz");
        using var cancel = new CancellationTokenSource();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => AtomicFile.WriteAsync(path, async (stream, ct) =>
        {
            await stream.WriteAsync(new byte[4096], ct);
            await cancel.CancelAsync();
            ct.ThrowIfCancellationRequested();
        }, cancel.Token));

        Assert.Empty(Directory.GetFiles(folder));
    }

    [SmallDiskFact]
    public void A_full_disk_fails_with_disk_full_keeps_the_old_file_and_gives_the_space_back()
    {
        using var disk = SmallDiskFactAttribute.Mount(2);
        var path = Path.Combine(disk.Folder, "executions.csv");
        File.WriteAllText(path, "session,start_ms,end_ms,rows,error\n");
        var freeBefore = new DriveInfo(disk.Folder).AvailableFreeSpace;

        var error = Assert.ThrowsAny<IOException>(() => AtomicFile.WriteAllBytes(path, new byte[8 * 1024 * 1024]));

        Assert.True(DiskFull.Is(error), error.ToString());
        Assert.Equal("session,start_ms,end_ms,rows,error\n", File.ReadAllText(path));
        Assert.Equal([path], Directory.GetFiles(disk.Folder));
        Assert.Equal(freeBefore, new DriveInfo(disk.Folder).AvailableFreeSpace);
    }
}
