namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>A named function where a material share of a process's CPU goes, its callees included.</summary>
/// <param name="Function">The function as <c>module!symbol</c>.</param>
/// <param name="Module">Its module.</param>
/// <param name="Kernel">True for kernel code.</param>
/// <param name="InclusiveShare">Share of the process's samples with the function on the stack (its callees included).</param>
/// <param name="SelfShare">Share of the samples in the function itself (the leaf).</param>
/// <param name="Callees">The heaviest named functions it leads to (the next named frame below it, unnamed frames passed over), with their shares of the process's samples.</param>
public sealed record HotFunction(string Function, string Module, bool Kernel, double InclusiveShare, double SelfShare, IReadOnlyList<NamedShare> Callees)
{
    /// <summary>The symbol alone (<c>px_find_digest</c>).</summary>
    public string Symbol => Function.Length > Module.Length && Module.Length > 0 ? Function[(Module.Length + 1)..] : Function;
}
