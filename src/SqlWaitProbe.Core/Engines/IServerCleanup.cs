namespace SqlWaitProbe.Core.Engines;

/// <summary>A connection to a server on which killed captures may have left sessions of their own (SQL Server's XE sessions).</summary>
public interface IServerCleanup : IAsyncDisposable
{
    /// <summary>
    /// Removes what a dead run recorded in <paramref name="resource"/> on the server: drops its session when it still
    /// exists and deletes its event files (<see cref="Runtime.RunResource.XeEventFiles"/>, only those) where this machine
    /// can; returns what was done and what was left, in words.
    /// </summary>
    Task<string> CleanAsync(Runtime.RunResource resource, CancellationToken cancellationToken);
}
