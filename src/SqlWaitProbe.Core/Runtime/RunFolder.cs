using System.Globalization;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// One run's folder inside the private <see cref="RuntimeFolder"/>: the owner marker, a <c>resource-NAME.json</c> for
/// everything the run made elsewhere, and the run's own temporary files. Disposing it deletes it.
/// </summary>
public sealed class RunFolder : IDisposable
{
    /// <summary>Prefix of resource files.</summary>
    public const string ResourcePrefix = "resource-";

    /// <summary>Name prefix of a run folder still being made: its owner marker is not in yet.</summary>
    public const string UnfinishedPrefix = ".new-";

    private readonly Lock _gate = new();

    private RunFolder(string path, string kind, string runId)
    {
        Path = path;
        Kind = kind;
        RunId = runId;
    }

    /// <summary>The folder.</summary>
    public string Path { get; }

    /// <summary>capture, analyze or pack.</summary>
    public string Kind { get; }

    public string RunId { get; }

    /// <summary>True once the folder was deleted.</summary>
    public bool IsDeleted { get; private set; }

    /// <summary>
    /// True when the folder goes with its last resource (a capture's, through <see cref="RunScope"/>, which makes a new one
    /// for the next); false keeps it until it is disposed (an experiment's record of the settings it changed).
    /// </summary>
    public bool DeletedWhenEmpty { get; init; }

    /// <summary>
    /// Makes a new run folder in <paramref name="root"/> (never reusing an existing name) with its owner marker in it. The
    /// folder is made under a name that says which process makes it (<see cref="UnfinishedName"/>) and renamed once the
    /// marker is in, so a probe killed in between leaves a folder 'probe cleanup' can tell is unfinished and whose.
    /// </summary>
    internal static RunFolder Create(string root, string kind, string runId, bool deletedWhenEmpty = false)
    {
        for (var attempt = 0; ; attempt++)
        {
            var suffix = Guid.NewGuid().ToString("N")[..6];
            var name = string.Create(CultureInfo.InvariantCulture, $"{kind}-{runId}-{suffix}");
            var path = System.IO.Path.Combine(root, name);
            var unfinished = System.IO.Path.Combine(root, UnfinishedName(ProcessIdentity.Current, suffix));
            if (PosixFile.LStat(path) is null && PosixFile.MakeDirectory(unfinished, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute))
            {
                try
                {
                    TrustedJson.Write(System.IO.Path.Combine(unfinished, RunMarker.FileName), new RunMarker
                    {
                        RunId = runId,
                        Kind = kind,
                        Owner = ProcessIdentity.Current,
                        CreatedUtc = DateTime.UtcNow,
                    });
                    Directory.Move(unfinished, path);
                    return new RunFolder(path, kind, runId) { DeletedWhenEmpty = deletedWhenEmpty };
                }
                catch (IOException) when (attempt <= 10)
                {
                    // The final name appeared meanwhile: give up this one and make another.
                    Directory.Delete(unfinished, recursive: true);
                    continue;
                }
            }

            if (attempt > 10)
            {
                throw new IOException($"could not make a new run folder in {root}");
            }
        }
    }

    /// <summary>The name of a run folder <paramref name="owner"/> is still making: <c>.new-PID-STARTTICKS-SUFFIX</c>.</summary>
    public static string UnfinishedName(ProcessIdentity owner, string suffix) =>
        string.Create(CultureInfo.InvariantCulture, $"{UnfinishedPrefix}{owner.Pid}-{owner.StartTicks}-{suffix}");

    /// <summary>
    /// The pid and start time of the process that made the unfinished run folder <paramref name="name"/>, or null when
    /// the name is not one (see <see cref="UnfinishedName"/>).
    /// </summary>
    public static (int Pid, long StartTicks)? UnfinishedOwner(string name)
    {
        if (!name.StartsWith(UnfinishedPrefix, StringComparison.Ordinal))
        {
            return null;
        }

        var parts = name[UnfinishedPrefix.Length..].Split('-');
        return parts.Length == 3
            && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && pid > 0
            && long.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var ticks)
            ? (pid, ticks)
            : null;
    }

    /// <summary>A path inside the run folder.</summary>
    public string PathFor(string name) => System.IO.Path.Combine(Path, name);

    /// <summary>What removes a scratch run on a signal or at exit while it lives (<see cref="TemporaryRuns"/>); null for others.</summary>
    internal IDisposable? Guard { get; set; }

    /// <summary>
    /// Records (or completes) a resource; call it before the resource exists and again once it does. A folder already
    /// deleted is an error: a new resource of a capture goes through <see cref="RunScope.Record"/>, which picks a live folder.
    /// </summary>
    public void Record(RunResource resource)
    {
        ArgumentNullException.ThrowIfNull(resource);
        if (!TryRecord(resource))
        {
            throw new InvalidOperationException($"the run folder {Path} was deleted before {resource.Name} was recorded in it");
        }
    }

    /// <summary>Records a resource unless the folder was deleted (its last resource forgotten meanwhile); false then.</summary>
    internal bool TryRecord(RunResource resource)
    {
        lock (_gate)
        {
            if (IsDeleted)
            {
                return false;
            }

            TrustedJson.Write(PathFor(ResourcePrefix + resource.Name + ".json"), resource);
            return true;
        }
    }

    /// <summary>Forgets a resource the run removed itself; with <see cref="DeletedWhenEmpty"/> the folder goes with its last resource.</summary>
    public void Forget(string name)
    {
        lock (_gate)
        {
            if (IsDeleted || !Directory.Exists(Path))
            {
                // Already gone (deleted by its owner or by 'probe cleanup').
                IsDeleted = true;
                return;
            }

            File.Delete(PathFor(ResourcePrefix + name + ".json"));
            if (DeletedWhenEmpty && !Directory.EnumerateFiles(Path, ResourcePrefix + "*").Any())
            {
                Delete();
            }
        }
    }

    /// <summary>Deletes the folder and everything in it.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            Delete();
        }
    }

    // The owner marker goes last, and the folder counts as deleted only once it is gone: a folder a worker was still
    // writing into when Ctrl+C deleted it keeps saying whose it is, so the next attempt (the command's own end, process
    // exit) or 'probe cleanup' after a kill finds and removes it.
    private void Delete()
    {
        // Deleted, and not made again since by a worker that was between two files when the folder went.
        if (IsDeleted && (OperatingSystem.IsLinux() ? PosixFile.LStat(Path) is null : !Directory.Exists(Path)))
        {
            return;
        }

        try
        {
            foreach (var entry in Directory.EnumerateFileSystemEntries(Path))
            {
                if (System.IO.Path.GetFileName(entry) == RunMarker.FileName)
                {
                    continue;
                }

                if (PosixFile.LStat(entry) is { IsDirectory: true } || (!OperatingSystem.IsLinux() && Directory.Exists(entry)))
                {
                    Directory.Delete(entry, recursive: true);
                }
                else
                {
                    File.Delete(entry);
                }
            }

            File.Delete(PathFor(RunMarker.FileName));
            Directory.Delete(Path);
        }
        catch (DirectoryNotFoundException) when (!Directory.Exists(Path))
        {
            // Already gone (deleted by 'probe cleanup').
        }

        IsDeleted = true;
    }
}
