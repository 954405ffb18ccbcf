using System.Runtime.Versioning;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests.TraceEventReference;

/// <summary>The call stack TraceLog associated with one event, leaf first, as the portable mappers read it.</summary>
[SupportedOSPlatform("windows")]
public static class TraceLogFrames
{
    /// <summary>The first kernel-space address of the trace's pointer size.</summary>
    public static ulong KernelStart(TraceLog log) => log.PointerSize == 8 ? EtwModuleNames.KernelSpaceStart64 : 0x8000_0000UL;

    /// <summary>The frames of <paramref name="evt"/>'s stack, leaf first; empty when no stack was walked.</summary>
    public static List<EtwFrame> Of(TraceEvent evt, ulong kernelStart)
    {
        var frames = new List<EtwFrame>(32);
        for (var call = evt.CallStack(); call is not null; call = call.Caller)
        {
            var address = call.CodeAddress;
            var module = address.ModuleFile?.FilePath ?? string.Empty;
            frames.Add(new EtwFrame(module, address.FullMethodName, address.Address, address.Address >= kernelStart));
        }

        return frames;
    }
}
