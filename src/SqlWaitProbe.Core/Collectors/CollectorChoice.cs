namespace SqlWaitProbe.Core.Collectors;

/// <summary>One collector of a capture as its module decided: it runs, or it does not and the manifest records why.</summary>
/// <param name="Name">The collector's name in the manifest (<c>perf</c>, <c>os</c>…).</param>
/// <param name="Description">What it does, as the dry run prints it; for one that does not run, why not.</param>
/// <param name="Status">Null when it runs; <c>skipped</c> (switched off, or pointless here) or <c>failed</c> (wanted but unavailable).</param>
/// <param name="Reason">Why it does not run, with the fix when there is one; null when it runs.</param>
public sealed record CollectorChoice(string Name, string Description, string? Status = null, string? Reason = null)
{
    /// <summary>True when the collector runs.</summary>
    public bool Runs => Reason is null;

    /// <summary>How the progress line names it when it cannot run (<c>CPU stacks</c>); its name when null.</summary>
    public string? Title { get; init; }

    /// <summary>A line for the capture's log when it runs (e.g. perf's call-graph decision and why).</summary>
    public string? Note { get; init; }

    /// <summary>The collector of a choice that does not run: it records why in the manifest.</summary>
    public NotRunCollector NotRun() => new(Name, Status ?? Bundle.CollectorStatus.Skipped, Reason ?? "");
}
