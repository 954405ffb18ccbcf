namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Attach captures whose ledger must close within 3% run alone: an attach capture samples other clients' backends,
/// and another test's capture on the same two cores delays the sampler (5% unexplained once, beside another capture).
/// The workload captures of known answers (KnownCasesTests, the background-load experiment, compare) run beside other
/// classes: their ledgers read CPU and run queue from the kernel's own counters, so a neighbour moves time from CPU
/// to the run queue without opening a gap, and their bounds say so (all passed beside two busy-looping processes).
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class KnownCasesCollection
{
    /// <summary>The collection name.</summary>
    public const string Name = "known cases";
}
