using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

public sealed class PerfScriptReaderOptionTests
{
    /// <summary>
    /// stackcollapse-perf.pl references that inferno-compatible rules cannot reproduce, with the reason. Each is
    /// still checked: the test asserts the known difference is the only one.
    /// </summary>
    internal static readonly IReadOnlyDictionary<string, string> KnownPerlDifferences = new Dictionary<string, string>(StringComparer.Ordinal);

    public static TheoryData<string, string> References()
    {
        var data = new TheoryData<string, string>();
        foreach (var tool in new[] { "inferno", "flamegraph" })
        {
            foreach (var file in Directory.GetFiles(TestData.Path("folded/expected-from-perf/" + tool), "*.txt").Order(StringComparer.Ordinal))
            {
                data.Add(tool, Path.GetFileName(file));
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(References))]
    public void Option_variant_matches_reference(string tool, string reference)
    {
        var (input, options) = InputAndOptions(reference);
        var expected = FoldedReference.Read(TestData.Path($"folded/expected-from-perf/{tool}/{reference}"));
        if (new FileInfo(input).Length == 0)
        {
            Assert.Empty(expected);
            return;
        }

        var actual = new PerfScriptReader(options).Fold(input);
        Assert.Equal(string.Empty, FoldedReference.Differences(expected, actual));
    }

    internal static (string Input, PerfFoldOptions Options) InputAndOptions(string reference)
    {
        var name = reference[..^".txt".Length];
        var at = name.LastIndexOf("-collapsed", StringComparison.Ordinal);
        var stem = name[..at];
        var option = name[(at + "-collapsed".Length)..].TrimStart('-');
        var options = option switch
        {
            "" => PerfFoldOptions.Default,
            "pid" => new PerfFoldOptions(IncludePid: true),
            "tid" => new PerfFoldOptions(IncludeTid: true),
            "kernel" => new PerfFoldOptions(AnnotateKernel: true),
            "jit" => new PerfFoldOptions(AnnotateJit: true),
            "all" => new PerfFoldOptions(AnnotateKernel: true, AnnotateJit: true),
            "addrs" => new PerfFoldOptions(IncludeAddresses: true),
            _ => throw new ArgumentException("unknown option set " + option),
        };
        var input = new[] { "flamegraph__", "inferno__" }.Select(p => TestData.Path("perf-script/" + p + stem + ".txt")).First(File.Exists);
        return (input, options);
    }
}
