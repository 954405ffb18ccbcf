using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>The symbol options of the ETW stack collector.</summary>
public static class EtwOptions
{
    /// <summary><c>--symbols</c> (Windows ETW).</summary>
    public static readonly OptionSpec<string?> Symbols = new("--symbols")
    {
        Help = "Symbol path for ETW stacks (Windows); default _NT_SYMBOL_PATH or Microsoft's public server with a local cache.",
        HelpOrder = 350,
    };

    /// <summary><c>--offline</c> (Windows ETW symbols).</summary>
    public static readonly OptionSpec<bool> Offline = new("--offline")
    {
        Help = "Use only cached symbols (Windows).",
        HelpOrder = 360,
    };

    /// <summary>The options above, in declaration order.</summary>
    public static IReadOnlyList<IOptionSpec> All { get; } = [Symbols, Offline];
}
