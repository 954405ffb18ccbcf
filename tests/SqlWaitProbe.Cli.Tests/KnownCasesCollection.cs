namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Captures whose ledger shares are asserted run alone: another test's capture on the same two cores would take
/// CPU from the sessions and move time from CPU to the run queue.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class KnownCasesCollection
{
    /// <summary>The collection name.</summary>
    public const string Name = "known cases";
}
