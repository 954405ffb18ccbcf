using Xunit;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.TestSupport;

/// <summary>One real embedded PostgreSQL shared by the tests of a collection.</summary>
public sealed class EmbeddedServerFixture : IAsyncLifetime
{
    /// <summary>The running server.</summary>
    public EmbeddedPostgres Server { get; private set; } = null!;

    /// <inheritdoc />
    public async Task InitializeAsync() =>
        Server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions { MaxSessions = 16 }, new Progress<string>(), CancellationToken.None);

    /// <inheritdoc />
    public async Task DisposeAsync() => await Server.DisposeAsync();
}
