using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests;

public sealed class EtwModuleNamesTests
{
    [Theory]
    [InlineData(@"C:\Windows\system32\ntoskrnl.exe", "ntoskrnl")]
    [InlineData(@"C:\Windows\System32\KernelBase.dll", "kernelbase")]
    [InlineData(@"C:\Program Files\Microsoft SQL Server\MSSQL16.MSSQLSERVER\MSSQL\Binn\sqldk.dll", "sqldk")]
    [InlineData(@"\SystemRoot\system32\hal.dll", "hal")]
    [InlineData("bcrypt.dll", "bcrypt")]
    [InlineData("sqlservr", "sqlservr")]
    [InlineData("C:/Program Files/Microsoft SQL Server/MSSQL16.MSSQLSERVER/MSSQL/Binn/sqlservr.exe", "sqlservr")]
    [InlineData("", "")]
    [InlineData("?", "")]
    public void Module_name_is_the_image_name_without_extension(string path, string expected) =>
        Assert.Equal(expected, EtwModuleNames.ModuleName(path));

    [Theory]
    [InlineData(@"C:\Windows\system32\ntoskrnl.exe", 0x7FF0_0000_0000UL, false, true)]
    [InlineData(@"C:\Windows\system32\hal.dll", 0UL, false, true)]
    [InlineData(@"\SystemRoot\System32\drivers\storport.sys", 0UL, false, true)]
    [InlineData(@"C:\Windows\System32\drivers\tcpip.sys", 0UL, false, true)]
    [InlineData(@"C:\Windows\System32\bcrypt.dll", 0x7FFA_0000_1000UL, false, false)]
    [InlineData(@"C:\Windows\System32\bcrypt.dll", 0UL, true, true)]
    [InlineData("", 0xFFFF_F802_0000_1000UL, false, true)]
    [InlineData("", 0x7FFA_0000_1000UL, false, false)]
    public void Kernel_code_is_told_by_address_path_or_image(string path, ulong address, bool sourceSaysKernel, bool expected) =>
        Assert.Equal(expected, EtwModuleNames.IsKernel(path, address, sourceSaysKernel));
}
