using Xunit.Abstractions;

[assembly: TestCollectionOrderer("SqlWaitProbe.Cli.Tests.LongestFirst", "SqlWaitProbe.Cli.Tests")]

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Starts the longest test collections first. xunit runs two collections at a time here and starts the next in about
/// the order given (the order its threads pick them up in is not promised); in its default order the chain of deadline
/// tests (about 95 s, one after another) started last and ran beside nothing for a minute and a half. The longest
/// first, the rest fill in around them, and the run ends with short classes on both threads. Collections measured
/// over 20 s in the suite of 2026-11-29 (docs/performance.md, Test suite) are named here, longest first; the others
/// follow by name. The order changes only when tests start, never what they check.
/// </summary>
public sealed class LongestFirst : ITestCollectionOrderer
{
    private static readonly string[] Longest =
    [
        TimingCollection.Name,
        nameof(KnownCasesTests),
        nameof(WatchTests),
        nameof(ExperimentCommandTests),
        ScramServerCollection.Name,
        nameof(HeadlineRunTests),
        nameof(DeepStackTests),
        nameof(SimultaneousCaptureTests),
        nameof(ExperimentBackgroundLoadTests),
        nameof(SecretLeakTests),
        nameof(CaptureLimitsTests),
        nameof(ToolPackageTests),
        nameof(CaptureBadInputTests),
        nameof(CompareCommandTests),
        "console",
    ];

    /// <inheritdoc />
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.OrderBy(Rank).ThenBy(c => c.DisplayName, StringComparer.Ordinal);

    private static int Rank(ITestCollection collection)
    {
        // A class's own collection is named "Test collection for NAMESPACE.CLASS"; a shared one by its definition.
        var name = collection.DisplayName;
        var dot = name.LastIndexOf('.');
        var shortName = name.StartsWith("Test collection for ", StringComparison.Ordinal) && dot >= 0 ? name[(dot + 1)..] : name;
        var rank = Array.IndexOf(Longest, shortName);
        return rank < 0 ? Longest.Length : rank;
    }
}
