namespace SqlWaitProbe.Capture.Os;

/// <summary>One OS collector of a capture: it runs, or it does not and the manifest records why.</summary>
/// <param name="Kind">Which collector.</param>
/// <param name="Name">The collector's name in the manifest (<c>perf</c>, <c>os</c>…).</param>
/// <param name="Description">What it does, as the dry run prints it; for one that does not run, why not.</param>
/// <param name="Status">Null when it runs; <c>skipped</c> (switched off, or pointless here) or <c>failed</c> (wanted but unavailable).</param>
/// <param name="Reason">Why it does not run, with the fix when there is one; null when it runs.</param>
public sealed record OsCollectorChoice(OsCollectorKind Kind, string Name, string Description, string? Status = null, string? Reason = null)
{
    /// <summary>True when the collector runs.</summary>
    public bool Runs => Reason is null;
}
