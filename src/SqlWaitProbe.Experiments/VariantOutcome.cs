namespace SqlWaitProbe.Experiments;

/// <summary>How one variant's capture ended.</summary>
/// <param name="Bundle">The bundle folder.</param>
/// <param name="Status"><c>complete</c>, <c>interrupted</c> or <c>failed</c>.</param>
/// <param name="Reason">Why it did not complete (<c>ctrl-c</c>, an error), else null.</param>
public sealed record VariantOutcome(string Bundle, string Status, string? Reason);
