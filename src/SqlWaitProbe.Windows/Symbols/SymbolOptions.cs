using Microsoft.Diagnostics.Symbols;

namespace SqlWaitProbe.Windows.Symbols;

/// <summary>
/// Where symbols come from for an ETW capture: <c>--symbols</c>, else <c>_NT_SYMBOL_PATH</c>, else Microsoft's public
/// symbol server behind a local cache. Offline reads only what the cache already holds.
/// </summary>
/// <param name="SymbolPath">The symbol path handed to the symbol reader.</param>
/// <param name="CacheFolder">Local folder downloaded symbols are kept in.</param>
/// <param name="Offline">True when nothing may be downloaded.</param>
/// <param name="Origin">Where the path came from: <c>--symbols</c>, <c>_NT_SYMBOL_PATH</c> or <c>default</c>.</param>
public sealed record SymbolOptions(string SymbolPath, string CacheFolder, bool Offline, string Origin)
{
    /// <summary>The environment variable Windows debuggers and PerfView read.</summary>
    public const string EnvironmentVariable = "_NT_SYMBOL_PATH";

    /// <summary>
    /// Decides the symbol path. <paramref name="symbolsOption"/> is <c>--symbols</c>; <paramref name="environment"/> reads a
    /// variable (tests pass their own); <paramref name="localAppData"/> overrides <c>%LOCALAPPDATA%</c>.
    /// </summary>
    public static SymbolOptions Resolve(string? symbolsOption, bool offline, Func<string, string?> environment, string? localAppData = null)
    {
        ArgumentNullException.ThrowIfNull(environment);
        var appData = localAppData ?? environment("LOCALAPPDATA") ?? Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData);
        var cache = Path.Combine(appData, "SqlWaitProbe", "symbols");

        if (!string.IsNullOrWhiteSpace(symbolsOption))
        {
            return new SymbolOptions(symbolsOption.Trim(), cache, offline, "--symbols");
        }

        var fromEnvironment = environment(EnvironmentVariable);
        if (!string.IsNullOrWhiteSpace(fromEnvironment))
        {
            return new SymbolOptions(fromEnvironment.Trim(), cache, offline, EnvironmentVariable);
        }

        // SRV*cache*server: downloads land in the cache and later runs (or --offline) find them there.
        var path = new Microsoft.Diagnostics.Symbols.SymbolPath(Microsoft.Diagnostics.Symbols.SymbolPath.MicrosoftSymbolServerPath).InsureHasCache(cache).ToString();
        return new SymbolOptions(path, cache, offline, "default");
    }

    /// <summary>The reader options: cache only when offline, else download as needed.</summary>
    public SymbolReaderOptions ReaderOptions => Offline ? SymbolReaderOptions.CacheOnly : SymbolReaderOptions.None;

    /// <summary>One line for logs and the dry run.</summary>
    public string Describe() =>
        $"symbols from {Origin}: {SymbolPath}" + (Offline ? " (offline: cache only)" : string.Empty);
}
