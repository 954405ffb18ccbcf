namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Tests that hold the probe to a deadline (exit within 10 s of a signal) run alone: on a two-core machine the
/// other test classes' captures and builds would otherwise decide whether the deadline holds.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class TimingCollection
{
    /// <summary>The collection name.</summary>
    public const string Name = "deadlines";
}
