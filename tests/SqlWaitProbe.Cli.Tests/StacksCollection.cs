namespace SqlWaitProbe.Cli.Tests;

/// <summary>The stacks command tests redirect the process-wide console, so they run one at a time.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class StacksCollection
{
    /// <summary>The collection name.</summary>
    public const string Name = "stacks console";
}
