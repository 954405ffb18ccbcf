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

    private readonly Action _onDeleted;
    private readonly Lock _gate = new();

    private RunFolder(string path, string kind, string runId, Action onDeleted)
    {
        Path = path;
        Kind = kind;
        RunId = runId;
        _onDeleted = onDeleted;
    }

    /// <summary>The folder.</summary>
    public string Path { get; }

    /// <summary>capture, analyze or pack.</summary>
    public string Kind { get; }

    /// <summary>The run id.</summary>
    public string RunId { get; }

    /// <summary>True once the folder was deleted.</summary>
    public bool IsDeleted { get; private set; }

    /// <summary>Makes a new run folder in <paramref name="root"/> (never reusing an existing name) and writes its owner marker first.</summary>
    internal static RunFolder Create(string root, string kind, string runId, Action onDeleted)
    {
        for (var attempt = 0; ; attempt++)
        {
            var name = string.Create(CultureInfo.InvariantCulture, $"{kind}-{runId}-{Guid.NewGuid().ToString("N")[..6]}");
            var path = System.IO.Path.Combine(root, name);
            if (PosixFile.MakeDirectory(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute))
            {
                TrustedJson.Write(System.IO.Path.Combine(path, RunMarker.FileName), new RunMarker
                {
                    RunId = runId,
                    Kind = kind,
                    Owner = ProcessIdentity.Current,
                    CreatedUtc = DateTime.UtcNow,
                });
                return new RunFolder(path, kind, runId, onDeleted);
            }

            if (attempt > 10)
            {
                throw new IOException($"could not make a new run folder in {root}");
            }
        }
    }

    /// <summary>A path inside the run folder.</summary>
    public string PathFor(string name) => System.IO.Path.Combine(Path, name);

    /// <summary>Records (or completes) a resource; call it before the resource exists and again once it does.</summary>
    public void Record(RunResource resource)
    {
        lock (_gate)
        {
            TrustedJson.Write(PathFor(ResourcePrefix + resource.Name + ".json"), resource);
        }
    }

    /// <summary>Forgets a resource the run removed itself; the folder goes with its last resource.</summary>
    public void Forget(string name)
    {
        lock (_gate)
        {
            if (IsDeleted || !Directory.Exists(Path))
            {
                // Already gone (deleted by its owner or by 'probe cleanup').
                IsDeleted = true;
                _onDeleted();
                return;
            }

            File.Delete(PathFor(ResourcePrefix + name + ".json"));
            if (!Directory.EnumerateFiles(Path, ResourcePrefix + "*").Any())
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

    private void Delete()
    {
        if (IsDeleted)
        {
            return;
        }

        IsDeleted = true;
        _onDeleted();
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (DirectoryNotFoundException)
        {
        }
    }
}
