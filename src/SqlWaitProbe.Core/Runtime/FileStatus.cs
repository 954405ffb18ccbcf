namespace SqlWaitProbe.Core.Runtime;

/// <summary>What <c>lstat</c> says about a path: enough to decide whether the probe may trust it.</summary>
/// <param name="Uid">Owner user id.</param>
/// <param name="Mode">Type and permission bits (<c>st_mode</c>).</param>
/// <param name="Device">Device the entry lives on.</param>
/// <param name="Inode">Inode number; with <paramref name="Device"/> it names this very entry, whatever its path.</param>
/// <param name="Links">Hard link count.</param>
public readonly record struct FileStatus(uint Uid, uint Mode, ulong Device, ulong Inode, uint Links)
{
    private const uint TypeMask = 0xF000;

    /// <summary>A real folder (not a link to one).</summary>
    public bool IsDirectory => (Mode & TypeMask) == 0x4000;

    /// <summary>A regular file (not a link, device or pipe).</summary>
    public bool IsRegularFile => (Mode & TypeMask) == 0x8000;

    /// <summary>A symbolic link.</summary>
    public bool IsSymlink => (Mode & TypeMask) == 0xA000;

    /// <summary>A device, pipe or socket: written in place, never replaced by a file.</summary>
    public bool IsSpecial => (Mode & TypeMask) is 0x1000 or 0x2000 or 0x6000 or 0xC000;

    /// <summary>The sticky bit (octal 1000): in a folder, only an entry's owner (or the folder's) may rename or delete it.</summary>
    public bool IsSticky => (Mode & 0x200) != 0;

    /// <summary>Group or others may write to it (octal 022).</summary>
    public bool WritableByOthers => (Mode & 0x12) != 0;

    /// <summary>Group or others have any access at all (octal 077).</summary>
    public bool OpenToOthers => (Mode & 0x3F) != 0;
}
