namespace SqlWaitProbe.Core.Engines;

/// <summary>A connection to a server on which killed captures may have left sessions of their own (SQL Server's XE sessions).</summary>
public interface IServerCleanup : IAsyncDisposable
{
    /// <summary>Drops the server-side session a dead run recorded under <paramref name="name"/>.</summary>
    Task DropAsync(string name, CancellationToken cancellationToken);
}
