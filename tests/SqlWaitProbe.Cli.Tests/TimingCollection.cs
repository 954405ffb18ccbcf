namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Tests that hold the probe to a deadline (exit within 10 s of a signal) or watch a live server for seconds run one at
/// a time, so two of them never share the machine, but beside one other test class: their deadlines hold on a busy
/// two-core machine. (They ran alone until 2026-11-28; what broke their deadlines then was a cancelled monitoring
/// query that held a socket thread for 15 s, not the load.)
/// </summary>
[CollectionDefinition(Name)]
public sealed class TimingCollection
{
    /// <summary>The collection name.</summary>
    public const string Name = "deadlines";
}
