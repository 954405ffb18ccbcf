namespace SqlWaitProbe.Core.Check;

/// <summary>One statement <c>probe check</c> sends.</summary>
/// <param name="Purpose">Why it is sent, e.g. <c>version check</c>.</param>
/// <param name="Text">The statement as sent.</param>
public sealed record ServerCheckStatement(string Purpose, string Text);
