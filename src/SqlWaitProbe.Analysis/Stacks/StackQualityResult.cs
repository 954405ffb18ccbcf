namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>The stack quality of a profile.</summary>
/// <param name="TotalWeight">Weight measured (the profile's unit).</param>
/// <param name="IncompleteShare">Share of the weight whose stack does not reach a thread's first function.</param>
/// <param name="Modules">Per module, heaviest first: frame weight and the share of it without a symbol.</param>
public sealed record StackQualityResult(long TotalWeight, double IncompleteShare, IReadOnlyList<ModuleSymbolShare> Modules);
