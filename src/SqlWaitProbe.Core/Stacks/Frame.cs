namespace SqlWaitProbe.Core.Stacks;

/// <summary>One stack frame: the module (file name, no directory) and the symbol within it.</summary>
/// <param name="Module">Module base name such as <c>libcrypto.so.3</c>, <c>sqldk</c> or <c>[kernel.kallsyms]</c>; empty when unknown.</param>
/// <param name="Symbol">Function name, or the module name again when perf could not resolve it.</param>
/// <param name="Kind">User, kernel, JIT or inlined.</param>
public readonly record struct Frame(string Module, string Symbol, FrameKind Kind)
{
    /// <summary>The frame as <c>module!symbol</c>, the form used by PerfView, WPA and the bundle's stack files.</summary>
    public string QualifiedName => Module.Length == 0 ? Symbol : Module + "!" + Symbol;

    /// <summary>
    /// The frame for reading: <see cref="QualifiedName"/>, except that a function perf or ETW could not name keeps
    /// its module and shows <c>?</c> (<c>libcrypto.so.3!?</c>) instead of repeating the module in brackets.
    /// </summary>
    public string DisplayName => Module.Length > 0 && (Symbol == "[" + Module + "]" || Symbol is "[unknown]" or "?" or "")
        ? Module + "!?"
        : QualifiedName;

    /// <summary>True for operating-system kernel frames.</summary>
    public bool IsKernel => Kind == FrameKind.Kernel;
}
