using System.Globalization;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests.Stacks;

public sealed class FoldedDiffTests
{
    [Theory]
    [InlineData(false, "result-default.txt")]
    [InlineData(true, "result-normalize.txt")]
    public void Pairs_stacks_as_difffolded_does(bool normalize, string result)
    {
        var before = Read("before.txt");
        var after = Read("after.txt");
        var scale = normalize ? FoldedDiff.NormalizeTotals(before, after) : 1;
        var rows = FoldedDiff.Pair(before, after, scale).Select(r => string.Create(CultureInfo.InvariantCulture, $"{r.Stack} {r.Before} {r.After}"));
        var expected = File.ReadAllLines(TestData.Path("folded/diff-folded/" + result)).Where(l => l.Length > 0);
        Assert.Equal(expected.Order(StringComparer.Ordinal), rows.Order(StringComparer.Ordinal));
    }

    private static Dictionary<string, long> Read(string name) =>
        File.ReadAllLines(TestData.Path("folded/diff-folded/" + name)).Where(l => l.Length > 0)
            .ToDictionary(l => l[..l.LastIndexOf(' ')], l => long.Parse(l[(l.LastIndexOf(' ') + 1)..], CultureInfo.InvariantCulture));
}
