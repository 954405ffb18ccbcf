using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

public sealed class PerfScriptReaderFoldTests
{
    public static TheoryData<string> DefaultReferences()
    {
        var data = new TheoryData<string>();
        foreach (var file in Directory.GetFiles(TestData.Path("folded/expected-from-perf/inferno-default"), "*.folded").Order(StringComparer.Ordinal))
        {
            data.Add(Path.GetFileName(file));
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(DefaultReferences))]
    public void Default_fold_matches_inferno(string reference)
    {
        var input = PerfInputFor(reference);
        var expected = FoldedReference.Read(TestData.Path("folded/expected-from-perf/inferno-default/" + reference));
        if (new FileInfo(input).Length == 0)
        {
            // inferno prints nothing for an empty file; probe refuses it, since an empty capture is a failed capture.
            Assert.Empty(expected);
            var error = Assert.Throws<BadInputException>(() => new PerfScriptReader().Fold(input));
            Assert.Contains("empty", error.Message);
            return;
        }

        var actual = new PerfScriptReader().Fold(input);
        Assert.True(expected.Count > 0);
        Assert.Equal(string.Empty, FoldedReference.Differences(expected, actual));
    }

    internal static string PerfInputFor(string reference)
    {
        var stem = reference[..^".folded".Length];
        var plain = TestData.Path("perf-script/" + stem + ".txt");
        return File.Exists(plain) ? plain : TestData.Path("perf-script/" + stem + ".txt.gz");
    }
}
