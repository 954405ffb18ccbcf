using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>The servers <c>probe cleanup</c> was asked to clean, one per engine whose options named one.</summary>
internal sealed class ServerCleanups : IAsyncDisposable
{
    private readonly List<IServerCleanup> _open;

    private ServerCleanups(List<IServerCleanup> open) => _open = open;

    /// <summary>
    /// Drops a recorded server-side session on the servers given; null when none was given, so the runs that made such
    /// sessions are kept for a later cleanup that names the server.
    /// </summary>
    public Func<RunResource, CancellationToken, Task<string>>? CleanAsync => _open.Count == 0 ? null : async (resource, token) =>
    {
        var done = new List<string>();
        foreach (var server in _open)
        {
            done.Add(await server.CleanAsync(resource, token));
        }

        return string.Join("; ", done);
    };

    /// <summary>Connects to the server each registered engine's cleanup options name.</summary>
    public static async Task<ServerCleanups> OpenAsync(OptionValues options, CancellationToken cancellationToken)
    {
        var open = new List<IServerCleanup>();
        foreach (var engine in Registered.Engines)
        {
            if (await engine.OpenCleanupAsync(options, cancellationToken) is { } cleanup)
            {
                open.Add(cleanup);
            }
        }

        return new ServerCleanups(open);
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        foreach (var server in _open)
        {
            await server.DisposeAsync();
        }
    }
}
