using SqlWaitProbe.Core.Cleanup;

namespace SqlWaitProbe.Postgres.Embedded;

/// <summary>Finds <c>probe-pg-*</c> folders of killed captures in the temp folder, stops their servers and deletes them.</summary>
public sealed class EmbeddedPostgresCleaner : ILeftoverCleaner
{
    private readonly string _parent;

    /// <summary>Looks in <paramref name="parentFolder"/> (default: the temp folder).</summary>
    public EmbeddedPostgresCleaner(string? parentFolder = null)
    {
        _parent = parentFolder ?? Path.GetTempPath();
    }

    /// <inheritdoc />
    public string Name => "embedded-postgres";

    /// <inheritdoc />
    public Task<IReadOnlyList<Leftover>> FindAsync(CancellationToken cancellationToken)
    {
        var found = new List<Leftover>();
        if (!Directory.Exists(_parent))
        {
            return Task.FromResult<IReadOnlyList<Leftover>>(found);
        }

        foreach (var folder in Directory.EnumerateDirectories(_parent, EmbeddedPostgres.FolderPrefix + "*"))
        {
            var marker = EmbeddedMarker.TryRead(folder);
            if (marker is not null && UnixUser.IsAlive(marker.ProbePid))
            {
                // Its capture is still running.
                continue;
            }

            var pid = marker?.ServerPid ?? ReadPid(Path.Combine(folder, "data"));
            var running = pid is { } p && UnixUser.IsAlive(p);
            found.Add(new Leftover("embedded-postgres", folder, running
                ? $"embedded PostgreSQL (postmaster pid {pid}) of run {marker?.RunId ?? "?"} in {folder}"
                : $"folder of a stopped embedded PostgreSQL in {folder}"));
        }

        return Task.FromResult<IReadOnlyList<Leftover>>(found);
    }

    /// <inheritdoc />
    public async Task<string> RemoveAsync(Leftover leftover, CancellationToken cancellationToken)
    {
        var marker = EmbeddedMarker.TryRead(leftover.Id);
        var data = marker?.DataFolder ?? Path.Combine(leftover.Id, "data");
        var pid = marker?.ServerPid ?? ReadPid(data);
        var wasRunning = pid is { } p && UnixUser.IsAlive(p);
        if (wasRunning)
        {
            await EmbeddedPostgres.StopServerAsync(marker?.BinFolder ?? PostgresBinaries.TryFind() ?? "", data, marker?.RunAs, pid);
        }

        EmbeddedPostgres.DeleteFolder(leftover.Id);
        return wasRunning ? $"stopped PostgreSQL pid {pid} and deleted {leftover.Id}" : $"deleted {leftover.Id}";
    }

    private static int? ReadPid(string dataFolder)
    {
        try
        {
            return int.TryParse(File.ReadLines(Path.Combine(dataFolder, "postmaster.pid")).FirstOrDefault(), out var pid) ? pid : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
