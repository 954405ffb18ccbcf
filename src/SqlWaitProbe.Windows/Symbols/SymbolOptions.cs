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
            return new SymbolOptions(WithCache(symbolsOption.Trim(), cache), cache, offline, "--symbols");
        }

        var fromEnvironment = environment(EnvironmentVariable);
        if (!string.IsNullOrWhiteSpace(fromEnvironment))
        {
            return new SymbolOptions(WithCache(fromEnvironment.Trim(), cache), cache, offline, EnvironmentVariable);
        }

        // SRV*cache*server: downloads land in the cache, where later runs (and --offline) find them.
        return new SymbolOptions(WithCache(Microsoft.Diagnostics.Symbols.SymbolPath.MicrosoftSymbolServerPath, cache), cache, offline, "default");
    }

    // Symbol-server elements without a cache of their own download into ours; local folders and explicit caches stay as given.
    private static string WithCache(string path, string cache) =>
        new Microsoft.Diagnostics.Symbols.SymbolPath(path).InsureHasCache(cache).ToString().Trim(';');

    /// <summary>The reader options: cache only when offline, else download as needed.</summary>
    public SymbolReaderOptions ReaderOptions => Offline ? SymbolReaderOptions.CacheOnly : SymbolReaderOptions.None;

    /// <summary>One line for logs and the dry run.</summary>
    public string Describe() =>
        $"symbols from {Origin}: {SymbolPath}" + (Offline ? " (offline: cache only)" : string.Empty);
}
