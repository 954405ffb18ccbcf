namespace SqlWaitProbe.Capture.Watch;

/// <summary>How a watch ended: its dumps and why it stopped (<c>ctrl-c</c>, <c>sigterm</c> or <c>max-dumps</c>).</summary>
public sealed record WatchOutcome(IReadOnlyList<WatchDump> Dumps, string Reason);
