using SqlWaitProbe.Etl.Stacks;

namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// One thread of the trace, from its Thread event on; thread ids are reused, so a new Start replaces it. Holds the
/// samples taken while it ran kernel code whose user-mode part of the stack comes when it returns to user mode.
/// </summary>
internal sealed class EtlThread(int id, EtlProcess process)
{
    /// <summary>The thread id.</summary>
    public int Id { get; } = id;

    public EtlProcess Process { get; } = process;

    /// <summary>Events whose kernel-mode stack is known and whose user-mode part has not come yet, oldest first.</summary>
    public List<EtlDraft> InKernel { get; } = [];
}
