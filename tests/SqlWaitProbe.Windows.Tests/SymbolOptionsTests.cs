using Microsoft.Diagnostics.Symbols;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Tests;

public sealed class SymbolOptionsTests
{
    private const string AppData = @"C:\Users\dba\AppData\Local";

    private static Func<string, string?> Env(string? ntSymbolPath) =>
        name => name == SymbolOptions.EnvironmentVariable ? ntSymbolPath : null;

    [Fact]
    public void Default_is_the_microsoft_symbol_server_behind_a_local_cache()
    {
        var options = SymbolOptions.Resolve(null, offline: false, Env(null), AppData);

        Assert.Equal("default", options.Origin);
        Assert.Equal(Path.Combine(AppData, "SqlWaitProbe", "symbols"), options.CacheFolder);
        Assert.StartsWith($"SRV*{options.CacheFolder}*https://msdl.microsoft.com/download/symbols", options.SymbolPath, StringComparison.Ordinal);
        Assert.Equal(SymbolReaderOptions.None, options.ReaderOptions);
    }

    [Fact]
    public void Environment_symbol_path_is_used_when_no_option_is_given()
    {
        var options = SymbolOptions.Resolve(null, offline: false, Env(@"srv*D:\symcache*https://symbols.contoso.example/"), AppData);

        Assert.Equal("_NT_SYMBOL_PATH", options.Origin);
        Assert.Contains(@"D:\symcache", options.SymbolPath, StringComparison.Ordinal);
        Assert.Contains("symbols.contoso.example", options.SymbolPath, StringComparison.Ordinal);
        Assert.DoesNotContain("msdl.microsoft.com", options.SymbolPath, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void Option_wins_over_the_environment()
    {
        var options = SymbolOptions.Resolve(@"  E:\pdbs  ", offline: false, Env(@"srv*D:\symcache*https://symbols.contoso.example/"), AppData);

        Assert.Equal("--symbols", options.Origin);
        Assert.Equal(@"E:\pdbs", options.SymbolPath);
        Assert.DoesNotContain("contoso", options.SymbolPath, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(null)]
    [InlineData(@"srv*D:\symcache*https://symbols.contoso.example/")]
    public void Offline_reads_the_cache_only(string? environment)
    {
        var options = SymbolOptions.Resolve(null, offline: true, Env(environment), AppData);

        Assert.True(options.Offline);
        Assert.Equal(SymbolReaderOptions.CacheOnly, options.ReaderOptions);
        Assert.EndsWith("(offline: cache only)", options.Describe(), StringComparison.Ordinal);
    }

    [Fact]
    public void Blank_option_and_variable_fall_back_to_the_default()
    {
        Assert.Equal("default", SymbolOptions.Resolve("   ", offline: false, Env(" "), AppData).Origin);
    }
}
