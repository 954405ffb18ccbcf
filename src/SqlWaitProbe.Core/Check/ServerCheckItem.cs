namespace SqlWaitProbe.Core.Check;

/// <summary>One thing <c>probe check</c> looks for: a version, a permission or an extension.</summary>
/// <param name="Name">What it is, e.g. <c>VIEW SERVER STATE</c> or <c>pg_wait_sampling</c>.</param>
/// <param name="Ok">Whether it is there.</param>
/// <param name="Required">Whether a capture with every feature needs it (a missing optional one changes how data is gathered, not whether).</param>
/// <param name="Status">What the server said, e.g. <c>granted</c>, <c>missing</c>, <c>installed 1.1</c>, <c>not available on this server</c>.</param>
/// <param name="Detail">What it enables, or what happens without it.</param>
/// <param name="Fix">The statement that adds it, when it is missing and one statement can.</param>
public sealed record ServerCheckItem(string Name, bool Ok, bool Required, string Status, string Detail, string? Fix = null);
