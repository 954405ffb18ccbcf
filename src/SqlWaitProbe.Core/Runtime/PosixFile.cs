using System.Runtime.InteropServices;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// The few POSIX calls the probe's trust decisions need and .NET does not offer: the effective user, <c>lstat</c> and
/// <c>stat</c> (through <c>statx</c>, whose layout is the same on every Linux architecture) and an exclusive <c>mkdir</c>.
/// </summary>
public static class PosixFile
{
    private const int AtFdCwd = -100;
    private const int AtSymlinkNoFollow = 0x100;
    private const uint StatxBasicStats = 0x7FF;
    private const int ErrnoExists = 17;
    private const int ErrnoNotFound = 2;
    private const int ErrnoNotFolder = 20;

    /// <summary>The effective user id of this process (0 off Linux).</summary>
    public static uint EffectiveUid => OperatingSystem.IsLinux() ? Os.Libc.EffectiveUserId() : 0;

    /// <summary>The entry itself (links not followed), or null when it does not exist; null off Linux.</summary>
    public static FileStatus? LStat(string path) => StatOf(path, AtSymlinkNoFollow);

    /// <summary>What the path leads to, links followed (<c>stat</c>), or null when nothing is there; null off Linux.</summary>
    public static FileStatus? Stat(string path) => StatOf(path, 0);

    /// <summary>Creates one folder with <paramref name="mode"/>; false when something already has that name (never reuses it).</summary>
    public static bool MakeDirectory(string path, UnixFileMode mode)
    {
        if (!OperatingSystem.IsLinux())
        {
            if (Directory.Exists(path) || File.Exists(path))
            {
                return false;
            }

            Directory.CreateDirectory(path);
            return true;
        }

        if (MkDir(path, (uint)mode) == 0)
        {
            // The umask may have taken bits away, never added any; set exactly what was asked.
            File.SetUnixFileMode(path, mode);
            return true;
        }

        var errno = Marshal.GetLastPInvokeError();
        return errno == ErrnoExists ? false : throw new IOException($"cannot create {path} (errno {errno})");
    }

    private static FileStatus? StatOf(string path, int flags)
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        var buffer = new byte[256];
        if (Statx(AtFdCwd, path, flags, StatxBasicStats, buffer) != 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            return errno is ErrnoNotFound or ErrnoNotFolder ? null : throw new IOException($"cannot inspect {path} (errno {errno})");
        }

        // struct statx: nlink at 16, uid at 20, mode at 28, ino at 32, dev major/minor at 136/140.
        var links = BitConverter.ToUInt32(buffer, 16);
        var uid = BitConverter.ToUInt32(buffer, 20);
        var mode = BitConverter.ToUInt16(buffer, 28);
        var inode = BitConverter.ToUInt64(buffer, 32);
        var device = ((ulong)BitConverter.ToUInt32(buffer, 136) << 32) | BitConverter.ToUInt32(buffer, 140);
        return new FileStatus(uid, mode, device, inode, links);
    }

    [DllImport("libc", EntryPoint = "statx", SetLastError = true)]
    private static extern int Statx(int dirFd, [MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags, uint mask, byte[] buffer);

    [DllImport("libc", EntryPoint = "mkdir", SetLastError = true)]
    private static extern int MkDir([MarshalAs(UnmanagedType.LPUTF8Str)] string path, uint mode);
}
