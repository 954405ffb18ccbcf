namespace SqlWaitProbe.Core.Stacks;

/// <summary>One matching rule of a stack tag: a frame matches when both its module and its function match the wildcards.</summary>
/// <param name="Tag">Tag name (nested WPA tags are joined with <c>\</c>).</param>
/// <param name="ModulePattern">Module wildcard (<c>*</c>, <c>?</c>; case-insensitive; <c>.dll</c>/<c>.exe</c>/<c>.sys</c> ignored).</param>
/// <param name="FunctionPattern">Function wildcard; <c>*</c> matches every function.</param>
/// <param name="Priority">Higher wins when rules of different tags match the same frame.</param>
public sealed record StackTagRule(string Tag, string ModulePattern, string FunctionPattern, int Priority = 0)
{
    /// <summary>True when the frame's module and symbol match this rule.</summary>
    public bool Matches(string module, string symbol) =>
        Wildcard.IsMatch(Wildcard.StripImageExtension(ModulePattern), Wildcard.StripImageExtension(module))
        && Wildcard.IsMatch(FunctionPattern, symbol);
}
