using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests;

public sealed class EtwLeftoverFilesTests
{
    [Fact]
    public void Deletes_only_the_probes_closed_trace_files()
    {
        var folder = TestData.TempFolder();
        try
        {
            foreach (var name in new[] { "SqlWaitProbe-a1-load.etl", "SqlWaitProbe-a1-load.etlx", "SqlWaitProbe-notes.txt", "PerfViewData.etl", "SqlWaitProbe-b2-baseline.etl" })
            {
                File.WriteAllText(Path.Combine(folder, name), "x");
            }

            IReadOnlyList<string> deleted;
            using (new FileStream(Path.Combine(folder, "SqlWaitProbe-b2-baseline.etl"), FileMode.Open, FileAccess.ReadWrite, FileShare.None))
            {
                // On Windows an open trace cannot be opened again exclusively; on Linux locks are advisory, so
                // only the name filter is checked here.
                deleted = EtwLeftoverFiles.Delete(folder);
            }

            var names = deleted.Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray();
            Assert.Contains("SqlWaitProbe-a1-load.etl", names);
            Assert.Contains("SqlWaitProbe-a1-load.etlx", names);
            Assert.DoesNotContain("SqlWaitProbe-notes.txt", names);
            Assert.DoesNotContain("PerfViewData.etl", names);
            Assert.True(File.Exists(Path.Combine(folder, "PerfViewData.etl")));
            if (OperatingSystem.IsWindows())
            {
                Assert.DoesNotContain("SqlWaitProbe-b2-baseline.etl", names);
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void A_missing_folder_deletes_nothing() =>
        Assert.Empty(EtwLeftoverFiles.Delete(Path.Combine(Path.GetTempPath(), "no-such-" + Guid.NewGuid().ToString("N"))));
}
