using SqlWaitProbe.Etl.Model;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>
/// The CSwitch and ReadyThread events of one process (the server's pid), as the .etl reader hands them over, kept
/// for the off-CPU mapping in time order. A switch between two other processes is dropped; a switch that involves the
/// server keeps only its side of it, so the mapping never sees another process's threads. Memory holds the server's
/// switches only.
/// </summary>
/// <param name="pid">The server's process id.</param>
/// <param name="startUtc">When the trace started.</param>
/// <param name="naming">How the switched-in thread's frames are named.</param>
public sealed class EtlThreadSwitchSource(int pid, DateTime startUtc, EtlFrameNaming naming) : IEtwThreadSwitchSource
{
    private readonly List<(long Timestamp, long Order, EtwThreadSwitch Event)> _events = [];

    /// <inheritdoc />
    public DateTime StartUtc => startUtc;

    /// <summary>True for the server's threads: only their switched-in stacks are read.</summary>
    public bool Wants(EtlProcess process)
    {
        ArgumentNullException.ThrowIfNull(process);
        return process.Id == pid;
    }

    /// <summary>Keeps the server's side of a context switch.</summary>
    public void Add(EtlContextSwitch contextSwitch)
    {
        ArgumentNullException.ThrowIfNull(contextSwitch);
        var inServer = contextSwitch.NewProcess?.Id == pid;
        var outServer = contextSwitch.OldProcess?.Id == pid;
        if (!inServer && !outServer)
        {
            return;
        }

        // Waiting: the thread left to wait for something; Ready (and the rest) means it was preempted.
        _events.Add((contextSwitch.Timestamp, _events.Count, new EtwThreadSwitch(EtwThreadEventKind.CSwitch, contextSwitch.RelativeMSec,
            inServer ? contextSwitch.NewThreadId : -1, outServer ? contextSwitch.OldThreadId : -1,
            contextSwitch.OldThreadState == EtlContextSwitch.StateWaiting, inServer ? naming.Frames(contextSwitch.FramesLeafFirst, contextSwitch.NewProcess!) : [])));
    }

    /// <summary>Keeps a ready-thread event of a server thread.</summary>
    public void Add(EtlReadyThread readyThread)
    {
        ArgumentNullException.ThrowIfNull(readyThread);
        if (readyThread.Process?.Id == pid)
        {
            _events.Add((readyThread.Timestamp, _events.Count, new EtwThreadSwitch(EtwThreadEventKind.ReadyThread, readyThread.RelativeMSec, readyThread.ThreadId, -1, false, [])));
        }
    }

    /// <inheritdoc />
    public IEnumerable<EtwThreadSwitch> Events() =>
        _events.OrderBy(e => e.Timestamp).ThenBy(e => e.Order).Select(e => e.Event);
}
