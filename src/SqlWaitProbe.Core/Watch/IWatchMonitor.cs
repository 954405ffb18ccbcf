namespace SqlWaitProbe.Core.Watch;

/// <summary>
/// The engine's light poll of its sessions that a watch's triggers read, read-only, on one connection of its own. A
/// failed read throws; the watch opens a new monitor when the server is back.
/// </summary>
public interface IWatchMonitor : IAsyncDisposable
{
    /// <summary>Reads the watched sessions now.</summary>
    Task<WatchReading> ReadAsync(CancellationToken cancellationToken);
}
