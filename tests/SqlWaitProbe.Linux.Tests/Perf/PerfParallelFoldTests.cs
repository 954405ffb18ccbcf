using System.IO.Compression;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

public sealed class PerfParallelFoldTests
{
    [Fact]
    public void Folding_many_blocks_on_several_threads_equals_the_sum_of_the_copies()
    {
        // Seven copies of the real capture (about 9 MB) span several blocks and threads.
        var text = new StreamReader(new GZipStream(File.OpenRead(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz")), CompressionMode.Decompress)).ReadToEnd();
        var path = Path.Combine(TestData.TempFolder(), "seven.perf.txt");
        File.WriteAllText(path, string.Concat(Enumerable.Repeat(text, 7)));
        var expected = FoldedReference.Read(TestData.Path("folded/expected-from-perf/inferno-default/local__pg15-digest-1session.perf.folded"))
            .ToDictionary(e => e.Key, e => e.Value * 7);
        Assert.Equal(string.Empty, FoldedReference.Differences(expected, new PerfScriptReader().Fold(path)));
    }
}
