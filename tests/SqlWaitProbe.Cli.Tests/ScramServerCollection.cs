namespace SqlWaitProbe.Cli.Tests;

/// <summary>Tests sharing one <see cref="ScramPostgresFixture"/>, one at a time.</summary>
[CollectionDefinition(Name)]
public sealed class ScramServerCollection : ICollectionFixture<ScramPostgresFixture>
{
    /// <summary>Collection name.</summary>
    public const string Name = "scram server";
}
