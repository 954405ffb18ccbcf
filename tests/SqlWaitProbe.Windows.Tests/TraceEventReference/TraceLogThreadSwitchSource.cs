using System.Runtime.Versioning;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers.Kernel;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.OffCpu;
using KernelThreadState = System.Diagnostics.ThreadState;

namespace SqlWaitProbe.Windows.Tests.TraceEventReference;

/// <summary>
/// Reads the CSwitch and ReadyThread events of one process (the server's pid) from a converted ETW trace. A switch
/// between two other processes is dropped; a switch that involves the server keeps only its side of it, so the
/// mapping never sees another process's threads.
/// </summary>
[SupportedOSPlatform("windows")]
public sealed class TraceLogThreadSwitchSource : IEtwThreadSwitchSource
{
    private readonly TraceLog _log;
    private readonly int _pid;

    /// <summary>Wraps an open trace log; only threads of <paramref name="pid"/> are reported.</summary>
    public TraceLogThreadSwitchSource(TraceLog log, int pid)
    {
        _log = log ?? throw new ArgumentNullException(nameof(log));
        _pid = pid;
    }

    /// <inheritdoc />
    public DateTime StartUtc => _log.SessionStartTime.ToUniversalTime();

    /// <inheritdoc />
    public IEnumerable<EtwThreadSwitch> Events()
    {
        var kernelStart = TraceLogFrames.KernelStart(_log);
        foreach (var evt in _log.Events)
        {
            if (evt is CSwitchTraceData cswitch)
            {
                var inServer = cswitch.NewProcessID == _pid;
                var outServer = cswitch.OldProcessID == _pid;
                if (!inServer && !outServer)
                {
                    continue;
                }

                // Wait: the thread left to wait for something; Ready (and the rest) means it was preempted.
                yield return new EtwThreadSwitch(EtwThreadEventKind.CSwitch, cswitch.TimeStampRelativeMSec,
                    inServer ? cswitch.NewThreadID : -1, outServer ? cswitch.OldThreadID : -1,
                    cswitch.OldThreadState == KernelThreadState.Wait, inServer ? TraceLogFrames.Of(cswitch, kernelStart) : []);
            }
            else if (evt is DispatcherReadyThreadTraceData ready && ready.AwakenedProcessID == _pid)
            {
                yield return new EtwThreadSwitch(EtwThreadEventKind.ReadyThread, ready.TimeStampRelativeMSec, ready.AwakenedThreadID, -1, false, []);
            }
        }
    }
}
