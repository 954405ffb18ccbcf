namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>Symbol coverage of one module's frames.</summary>
/// <param name="Module">Module name (<c>[unknown]</c> when the frame had none).</param>
/// <param name="FrameWeight">Sum of the weights of the samples, once per frame of the module on their stack.</param>
/// <param name="UnsymbolisedShare">Share of <paramref name="FrameWeight"/> on frames without a symbol.</param>
public sealed record ModuleSymbolShare(string Module, double FrameWeight, double UnsymbolisedShare);
