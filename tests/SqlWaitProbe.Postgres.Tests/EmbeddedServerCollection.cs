using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Postgres.Tests;

/// <summary>Tests sharing one embedded server.</summary>
[CollectionDefinition(Name)]
public sealed class EmbeddedServerCollection : ICollectionFixture<EmbeddedServerFixture>
{
    /// <summary>Collection name.</summary>
    public const string Name = "embedded server";
}
