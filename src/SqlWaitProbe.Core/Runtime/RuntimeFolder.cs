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

    /// <summary>
    /// How internal-error logs in this folder begin: the probe writes them here (mode 0600) so a password in a
    /// command line or a stack trace is never open to other users; <c>probe cleanup</c> leaves them to their owner.
    /// </summary>
    public const string ErrorLogPrefix = "probe-error-";

    private const UnixFileMode Private = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;

    /// <summary>Where the folder is for this user (it may not exist yet).</summary>
    public static string Location =>
        Environment.GetEnvironmentVariable(OverrideVariable) is { Length: > 0 } chosen
            ? Path.GetFullPath(chosen)
            : OperatingSystem.IsWindows()
                ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData), "SqlWaitProbe", "runtime")
                : Path.Combine(Path.GetTempPath(), "sqlwaitprobe-" + PosixFile.EffectiveUid.ToString(CultureInfo.InvariantCulture));

    /// <summary>
    /// The checked folder, created (mode 0700) when absent and <paramref name="create"/>; null when absent and not created.
    /// Throws an environment problem when it exists but is not a private folder of this user, or when a folder
    /// holding it is one another user could change: the temporary folder and every folder above it (links resolved)
    /// must be owned by root or this user and closed to others' writes unless sticky (as <c>/tmp</c> is, which keeps
    /// others from renaming what they do not own), or another user could swap the private folder between the check
    /// and its use.
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

        // Everything below works on the resolved, checked parent, so no link in the given path is followed later.
        var parent = CheckedParent(path);
        path = Path.Combine(parent, Path.GetFileName(path));
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

    private static string CheckedParent(string path)
    {
        var (real, problem) = ParentCheck(Path.GetDirectoryName(path)!);
        var variable = Environment.GetEnvironmentVariable(OverrideVariable) is { Length: > 0 } ? OverrideVariable : "TMPDIR";
        return problem is null
            ? real!
            : throw new EnvironmentProblemException(
                $"the folder {Path.GetDirectoryName(path)} that would hold the probe's private folder ({variable}) {problem}",
                $"Set {variable} to an absolute folder of your own (or unset it to use /tmp) and run the command again.");
    }

    private static (string? Real, string? Problem) ParentCheck(string parent)
    {
        if (!Path.IsPathRooted(parent))
        {
            return (null, "is not an absolute path");
        }

        if (Os.Libc.RealPath(parent) is not { } real)
        {
            return (null, PosixFile.LStat(parent) is null ? "does not exist" : "cannot be resolved (a broken link or a file on the way)");
        }

        var uid = PosixFile.EffectiveUid;
        for (var current = real; current is not null; current = Path.GetDirectoryName(current))
        {
            var status = PosixFile.LStat(current);
            if (status is not { IsDirectory: true } s)
            {
                return (null, current == real ? "is not a folder" : $"lies under {current}, which is not a folder");
            }

            var where = current == real ? "" : $"lies under {current}, which ";
            if (s.Uid != 0 && s.Uid != uid)
            {
                return (null, $"{where}belongs to uid {s.Uid}, not to root or uid {uid}, so that user could replace the private folder between the probe's check and its use");
            }

            if (s.WritableByOthers && !s.IsSticky)
            {
                return (null, $"{where}is writable by others (mode {Convert.ToString(s.Mode & 0xFFF, 8)}) without the sticky bit, so another user could replace the private folder");
            }
        }

        return (real, null);
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
    /// A new run folder of <paramref name="runId"/> (with its owner marker). Each call makes its own: what one run shares
    /// goes through its <see cref="RunScope"/>.
    /// </summary>
    public static RunFolder Run(string kind, string runId, bool deletedWhenEmpty = false)
    {
        var root = Ensure(create: true)!;
        return RunFolder.Create(root, kind, runId, deletedWhenEmpty);
    }
}
