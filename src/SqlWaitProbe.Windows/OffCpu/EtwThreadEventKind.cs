namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>The two kernel dispatcher events of a Thread Time view.</summary>
public enum EtwThreadEventKind
{
    /// <summary>Thread/CSwitch: one thread leaves a CPU, another takes it.</summary>
    CSwitch = 0,
    /// <summary>Thread/ReadyThread (Dispatcher): a waiting thread is made ready to run.</summary>
    ReadyThread = 1,
}
