using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>The machine's logical CPUs across every processor group, which the server's CPU share divides by.</summary>
[SupportedOSPlatform("windows")]
internal static class WindowsProcessors
{
    // ALL_PROCESSOR_GROUPS: a machine of more than 64 logical CPUs has several groups, and a process's own view may be one.
    private const ushort AllProcessorGroups = 0xFFFF;

    /// <summary>Logical CPUs of every group; the runtime's count if Windows does not answer.</summary>
    public static int LogicalCount()
    {
        var count = GetActiveProcessorCount(AllProcessorGroups);
        return count > 0 ? (int)count : Environment.ProcessorCount;
    }

    [DllImport("kernel32.dll", ExactSpelling = true)]
    private static extern uint GetActiveProcessorCount(ushort groupNumber);
}
