using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// Frames as a SQL Server CPU trace of the HASHBYTES-under-concurrency story shows them: bcrypt hashing, SOS page
/// allocation and free in sqldk, and the kernel's page-fault and zeroing paths under them.
/// </summary>
internal static class SeedFrames
{
    private const ulong User = 0x7FFA_0000_0000;
    private const ulong Kernel = 0xFFFF_F802_0000_0000;

    public static EtwFrame Ntdll(string method) => new(@"C:\Windows\System32\ntdll.dll", method, User + 0x1000, false);
    public static EtwFrame Kernel32(string method) => new(@"C:\Windows\System32\KERNEL32.DLL", method, User + 0x2000, false);
    public static EtwFrame KernelBase(string method) => new(@"C:\Windows\System32\KernelBase.dll", method, User + 0x3000, false);
    public static EtwFrame Sqldk(string? method) => new(@"C:\Program Files\Microsoft SQL Server\MSSQL16.MSSQLSERVER\MSSQL\Binn\sqldk.dll", method, User + 0x4000, false);
    public static EtwFrame Sqlmin(string? method) => new(@"C:\Program Files\Microsoft SQL Server\MSSQL16.MSSQLSERVER\MSSQL\Binn\sqlmin.dll", method, User + 0x5000, false);
    public static EtwFrame Sqllang(string? method) => new(@"C:\Program Files\Microsoft SQL Server\MSSQL16.MSSQLSERVER\MSSQL\Binn\sqllang.dll", method, User + 0x6000, false);
    public static EtwFrame Bcrypt(string method) => new(@"C:\Windows\System32\bcrypt.dll", method, User + 0x7000, false);
    public static EtwFrame BcryptPrimitives(string method) => new(@"C:\Windows\System32\bcryptPrimitives.dll", method, User + 0x8000, false);

    // TraceLog marks kernel frames by address; the path is what the image-load event gave.
    public static EtwFrame Ntoskrnl(string? method) => new(@"C:\Windows\system32\ntoskrnl.exe", method, Kernel + 0x1000, true);
    public static EtwFrame Hal(string? method) => new(@"C:\Windows\system32\hal.dll", method, Kernel + 0x2000, true);

    /// <summary>A frame in no known image (JIT code, or an image the trace missed).</summary>
    public static EtwFrame Unknown() => new(string.Empty, null, User + 0x9999, false);
}
