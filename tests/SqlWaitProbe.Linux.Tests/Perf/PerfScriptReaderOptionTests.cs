using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

public sealed class PerfScriptReaderOptionTests
{
    /// <summary>
    /// Where stackcollapse-perf.pl differs from inferno's rules, by input: the perl script emits a stack only at a
    /// blank line (so it drops a final sample with none after it), leaves half-demangled Rust names as perf printed
    /// them (<c>$LT$…::h0123…</c>) where inferno completes them, and strips quotes from names. The comparison undoes exactly these, and nothing else.
    /// </summary>
    private static readonly Dictionary<string, PerlDifference> PerlDifferences = new(StringComparer.Ordinal)
    {
        ["perf-dd-stacks-01"] = PerlDifference.DropsFinalSample,
        ["perf-mirageos-stacks-01"] = PerlDifference.DropsFinalSample,
        ["perf-rust-Yamakaky-dcpu"] = PerlDifference.KeepsHalfDemangledRust,
        ["perf-js-stacks-01"] = PerlDifference.StripsQuotes,
    };

    private enum PerlDifference
    {
        DropsFinalSample,
        KeepsHalfDemangledRust,
        StripsQuotes,
    }

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

        var stem = reference[..reference.LastIndexOf("-collapsed", StringComparison.Ordinal)];
        if (tool == "flamegraph" && PerlDifferences.TryGetValue(stem, out var difference))
        {
            switch (difference)
            {
                case PerlDifference.DropsFinalSample:
                    var text = File.ReadAllText(input);
                    var cut = Path.Combine(TestData.TempFolder(), Path.GetFileName(input));
                    File.WriteAllText(cut, text[..(text.TrimEnd().LastIndexOf("\n\n", StringComparison.Ordinal) + 2)]);
                    input = cut;
                    break;
                case PerlDifference.KeepsHalfDemangledRust:
                    expected = Merge(expected.Select(e => (string.Join(';', e.Key.Split(';').Select(PerfFrameNames.FixRustSymbol)), e.Value)));
                    break;
            }

            var adjusted = new PerfScriptReader(options).Fold(input);
            if (difference == PerlDifference.StripsQuotes)
            {
                adjusted = Merge(adjusted.Select(e => (e.Key.Replace("'", string.Empty).Replace("\"", string.Empty), e.Value)));
            }

            Assert.Equal(string.Empty, FoldedReference.Differences(expected, adjusted));
            return;
        }

        var actual = new PerfScriptReader(options).Fold(input);
        Assert.Equal(string.Empty, FoldedReference.Differences(expected, actual));
    }

    private static Dictionary<string, long> Merge(IEnumerable<(string Stack, long Weight)> entries)
    {
        var merged = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (stack, weight) in entries)
        {
            merged[stack] = merged.GetValueOrDefault(stack) + weight;
        }

        return merged;
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
