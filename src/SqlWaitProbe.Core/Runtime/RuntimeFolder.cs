using System.Collections.Concurrent;
using System.Globalization;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// The probe's private per-user folder for state it must find again after a <c>kill -9</c>: one run folder per capture,
/// analyze or pack, each with an owner marker and the resources it made. Like <c>$XDG_RUNTIME_DIR</c> it is owned by the
/// current user, mode 0700, created exclusively, and checked on every use: the default is <c>sqlwaitprobe-UID</c> in
/// the temp folder (a disk, so a large perf file fits), <c>SQLWAITPROBE_RUNTIME_DIR</c> names another. On Windows it is
/// <c>%LOCALAPPDATA%\SqlWaitProbe\runtime</c>, which the profile's ACL keeps private.
/// </summary>
public static class RuntimeFolder
{
    /// <summary>Environment variable naming another private folder.</summary>
    public const string OverrideVariable = "SQLWAITPROBE_RUNTIME_DIR";

    private const UnixFileMode Private = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
    private static readonly ConcurrentDictionary<string, RunFolder> Runs = new(StringComparer.Ordinal);
    private static readonly Lock Gate = new();

    /// <summary>Where the folder is for this user (it may not exist yet).</summary>
    public static string Location =>
        Environment.GetEnvironmentVariable(OverrideVariable) is { Length: > 0 } chosen
            ? Path.GetFullPath(chosen)
            : OperatingSystem.IsWindows()
                ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData), "SqlWaitProbe", "runtime")
                : Path.Combine(Path.GetTempPath(), "sqlwaitprobe-" + PosixFile.EffectiveUid.ToString(CultureInfo.InvariantCulture));

    /// <summary>
    /// The checked folder, created (mode 0700) when absent and <paramref name="create"/>; null when absent and not created.
    /// Throws an environment problem when it exists but is not a private folder of this user.
    /// </summary>
    public static string? Ensure(bool create)
    {
        var path = Location;
        if (!OperatingSystem.IsLinux())
        {
            if (create)
            {
                Directory.CreateDirectory(path);
            }

            return Directory.Exists(path) ? path : null;
        }

        if (PosixFile.LStat(path) is null)
        {
            if (!create)
            {
                return null;
            }

            PosixFile.MakeDirectory(path, Private);
        }

        return Problem(path) is { } problem
            ? throw new EnvironmentProblemException(
                $"the probe's private folder {path} is not safe to use: {problem}",
                $"Remove it if someone else made it, or set {OverrideVariable} to a folder only you can use (mode 0700)")
            : path;
    }

    /// <summary>Why <paramref name="folder"/> is not a private folder of the current user, or null when it is.</summary>
    public static string? Problem(string folder)
    {
        if (!OperatingSystem.IsLinux())
        {
            return Directory.Exists(folder) ? null : "it does not exist";
        }

        return PosixFile.LStat(folder) switch
        {
            null => "it does not exist",
            { IsDirectory: false } s => s.IsSymlink ? "it is a symbolic link" : "it is not a folder",
            { } s when s.Uid != PosixFile.EffectiveUid => $"it belongs to uid {s.Uid}, not to uid {PosixFile.EffectiveUid}",
            { OpenToOthers: true } s => $"its mode is {Convert.ToString(s.Mode & 0x1FF, 8)}, not 700",
            _ => null,
        };
    }

    /// <summary>
    /// The run folder of <paramref name="runId"/> in this process, made (with its owner marker) on first use. A capture's
    /// collectors and server share one; it goes when its last resource is forgotten or it is disposed.
    /// </summary>
    public static RunFolder Run(string kind, string runId)
    {
        lock (Gate)
        {
            var key = kind + "-" + runId;
            if (Runs.TryGetValue(key, out var existing) && !existing.IsDeleted)
            {
                return existing;
            }

            var root = Ensure(create: true)!;
            var folder = RunFolder.Create(root, kind, runId, () => Runs.TryRemove(key, out _));
            Runs[key] = folder;
            return folder;
        }
    }

    /// <summary>Every run folder of every process of this user that is still live, for a forced exit.</summary>
    public static IReadOnlyList<RunFolder> Open => Runs.Values.ToArray();
}
