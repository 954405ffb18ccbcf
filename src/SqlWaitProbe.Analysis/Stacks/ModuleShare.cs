namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>One module's share of a process's CPU samples.</summary>
/// <param name="Process">Process name.</param>
/// <param name="Module">Module name (<c>[unknown]</c> when perf gave none).</param>
/// <param name="Kernel">True when the module is kernel code.</param>
/// <param name="ExclusiveWeight">Weight of samples whose leaf frame is in the module.</param>
/// <param name="InclusiveWeight">Weight of samples with the module anywhere on the stack.</param>
/// <param name="ExclusiveShare">Exclusive weight ÷ the process's total weight (0..1).</param>
/// <param name="InclusiveShare">Inclusive weight ÷ the process's total weight (0..1).</param>
public sealed record ModuleShare(string Process, string Module, bool Kernel, long ExclusiveWeight, long InclusiveWeight, double ExclusiveShare, double InclusiveShare);
