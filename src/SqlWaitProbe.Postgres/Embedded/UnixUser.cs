using System.Runtime.InteropServices;

namespace SqlWaitProbe.Postgres.Embedded;

/// <summary>The few POSIX user and process calls the embedded server needs.</summary>
internal static class UnixUser
{
    /// <summary>True when the probe runs as root (PostgreSQL refuses to run as root).</summary>
    public static bool IsRoot => Core.Os.Libc.IsRoot;

    /// <summary>Uid and gid of a user from /etc/passwd, or null.</summary>
    public static (int Uid, int Gid)? Lookup(string user)
    {
        foreach (var line in File.ReadLines("/etc/passwd"))
        {
            var f = line.Split(':');
            if (f.Length > 3 && f[0] == user && int.TryParse(f[2], out var uid) && int.TryParse(f[3], out var gid))
            {
                return (uid, gid);
            }
        }

        return null;
    }

    /// <summary>Changes the owner of a file or folder (not recursive).</summary>
    public static void Chown(string path, int uid, int gid)
    {
        if (Chown(path, (uint)uid, (uint)gid) != 0)
        {
            throw new IOException($"chown {path} failed (errno {Marshal.GetLastPInvokeError()})");
        }
    }

    [DllImport("libc", EntryPoint = "chown", SetLastError = true)]
    private static extern int Chown([MarshalAs(UnmanagedType.LPUTF8Str)] string path, uint owner, uint group);
}
