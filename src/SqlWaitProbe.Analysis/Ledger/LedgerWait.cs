namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>One wait type's part of the ledger.</summary>
/// <param name="Type">Wait type.</param>
/// <param name="Seconds">Seconds waited.</param>
/// <param name="SignalSeconds">Of which runnable, waiting for a scheduler (SQL Server signal waits).</param>
/// <param name="Source">Where the figure came from.</param>
public sealed record LedgerWait(string Type, double Seconds, double SignalSeconds, string Source)
{
    /// <summary>What the wait says about the server: a resource, or idle, intended or client time (<see cref="Core.Waits.WaitClasses"/>).</summary>
    public Core.Waits.WaitClass Class { get; init; }

    /// <summary>True for a wait on a server resource, the waits findings are about.</summary>
    public bool IsResource => Class == Core.Waits.WaitClass.Resource;
}
