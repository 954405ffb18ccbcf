namespace SqlWaitProbe.Capture.Watch;

/// <summary>One bundle a watch wrote: its folder, how its capture ended, what fired it and its first findings.</summary>
public sealed record WatchDump(string Folder, string Status, string Trigger, IReadOnlyList<string> Findings);
