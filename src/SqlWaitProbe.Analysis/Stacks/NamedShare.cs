namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>A named function (<c>module!symbol</c>) and its share of a process's samples.</summary>
/// <param name="Function">The function as <c>module!symbol</c>.</param>
/// <param name="Share">Share of the process's samples with it on the stack.</param>
public sealed record NamedShare(string Function, double Share);
