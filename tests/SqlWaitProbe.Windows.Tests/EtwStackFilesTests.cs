using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;
using static SqlWaitProbe.Windows.Tests.SeedFrames;

namespace SqlWaitProbe.Windows.Tests;

public sealed class EtwStackFilesTests
{
    [Fact]
    public void Writes_the_three_normalised_files_of_the_bundle_format()
    {
        var start = new DateTime(2026, 3, 14, 9, 0, 0, DateTimeKind.Utc);
        var source = new RecordedEtwStackSource(start)
            .Add("sqlservr", 3, 0, Sqldk("SOS_MemoryWorkSpace::FreePage"), Ntoskrnl("KiPageFault"))
            .Add("sqlservr", 2, 1200, Sqllang("CXStmtQuery::ErsqExecuteQuery"), BcryptPrimitives("SymCryptSha256AppendBlocks"));
        var mapping = EtwStackMapper.Map(source, start, EtwSymbolMode.Resolved);
        var root = TestData.TempFolder();
        try
        {
            EtwStackFiles.Write(root, "load", mapping, new EtwSamplingFacts("etw", 1000, mapping.SampleCount, 0, 2.0, 8));

            Assert.Equal(
                "sqlservr;sqldk!SOS_MemoryWorkSpace::FreePage;ntoskrnl!KiPageFault_[k] 3\nsqlservr;sqllang!CXStmtQuery::ErsqExecuteQuery;bcryptprimitives!SymCryptSha256AppendBlocks 2\n",
                File.ReadAllText(Path.Combine(root, BundlePaths.Stacks("load"))));
            Assert.Equal(
                "second,process,module,kernel,weight\n0,sqlservr,ntoskrnl,1,3\n1,sqlservr,bcryptprimitives,0,2\n",
                File.ReadAllText(Path.Combine(root, BundlePaths.StackTimeline("load"))));

            using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(root, BundlePaths.StackInfo("load"))));
            var facts = json.RootElement;
            Assert.Equal("etw", facts.GetProperty("source").GetString());
            Assert.Equal(1000, facts.GetProperty("sampleHz").GetDouble());
            Assert.Equal(5, facts.GetProperty("samples").GetInt64());
            Assert.Equal(0, facts.GetProperty("lostSamples").GetInt64());
            Assert.Equal(2.0, facts.GetProperty("durationSeconds").GetDouble());
            Assert.Equal(8, facts.GetProperty("logicalCpus").GetInt32());
            Assert.Empty(Directory.GetFiles(root, "*.tmp", SearchOption.AllDirectories));

            var reread = new StackProfile();
            using var reader = new StreamReader(Path.Combine(root, BundlePaths.Stacks("load")));
            Assert.Equal(2, FoldedStackFormat.ReadInto(reader, "stacks.folded", reread, firstFrameIsProcess: true));
            Assert.Equal(5, reread.TotalWeight);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }
}
