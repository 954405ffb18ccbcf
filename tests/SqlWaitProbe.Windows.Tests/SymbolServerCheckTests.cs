using System.Diagnostics;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// The check of each symbol server before a phase's first lookup, against stand-in servers on this machine's loopback:
/// one that never answers, one that refuses at once, one that answers 404.
/// </summary>
public sealed class SymbolServerCheckTests
{
    [Fact]
    public void Only_http_symbol_servers_are_checked_each_once()
    {
        var path = @"SRV*C:\cache*https://msdl.microsoft.com/download/symbols;D:\pdbs;SRV*\\share\sym;srv*E:\c*http://symbols.contoso.example/;"
            + @"SRV*F:\c2*https://msdl.microsoft.com/download/symbols";

        Assert.Equal(["https://msdl.microsoft.com/download/symbols", "http://symbols.contoso.example/"], SymbolServerCheck.Servers(path));
        Assert.Empty(SymbolServerCheck.Servers(@"D:\pdbs;SRV*C:\cache"));
    }

    [Fact]
    public void A_server_left_out_keeps_its_cache_and_the_rest_of_the_path_stays()
    {
        var path = @"SRV*C:\cache*https://msdl.microsoft.com/download/symbols;D:\pdbs;SRV*E:\c*http://symbols.contoso.example/";

        Assert.Equal(@"SRV*C:\cache;D:\pdbs;SRV*E:\c*http://symbols.contoso.example/",
            SymbolServerCheck.Without(path, ["https://msdl.microsoft.com/download/symbols"]));
    }

    [Fact]
    public void A_server_that_never_answers_is_given_up_at_the_timeout()
    {
        using var server = StandInSymbolServer.Start(StandInSymbolServer.Behaviour.NeverAnswers);
        var clock = Stopwatch.StartNew();

        // 3 s: time to connect and send the request on a loaded machine (with 1 s, a suite run once gave up before the
        // request was written), so the stand-in's read below shows the check asked.
        var problem = SymbolServerCheck.Problem(server.Url("probe:s3cret-pw"), TimeSpan.FromSeconds(3), CancellationToken.None);

        clock.Stop();
        Assert.Equal($"http://probe:***@127.0.0.1:{server.Port}/ did not answer within 3 s", problem);
        Assert.True(clock.Elapsed >= TimeSpan.FromSeconds(2.9), $"gave up after {clock.Elapsed.TotalMilliseconds:0} ms, before the timeout");
        Assert.True(SpinWait.SpinUntil(() => server.Requests.Count == 1, TimeSpan.FromSeconds(10)), "the stand-in never read the check's request");
        Assert.Equal("GET / HTTP/1.1", Assert.Single(server.Requests));
    }

    [Fact]
    public void A_server_that_refuses_is_reported_as_refusing_without_waiting_for_the_timeout()
    {
        using var server = StandInSymbolServer.Start(StandInSymbolServer.Behaviour.RefusesAtOnce);
        var timeout = TimeSpan.FromSeconds(20);
        var clock = Stopwatch.StartNew();

        var problem = SymbolServerCheck.Problem(server.Url(), timeout, CancellationToken.None);

        clock.Stop();
        Assert.Equal($"http://127.0.0.1:{server.Port}/ refused the connection", problem);
        Assert.True(clock.Elapsed < timeout, $"took {clock.Elapsed.TotalSeconds:0.0} s");
    }

    [Fact]
    public void A_server_that_answers_even_404_is_there()
    {
        using var server = StandInSymbolServer.Start(StandInSymbolServer.Behaviour.AnswersNotFound);

        Assert.Null(SymbolServerCheck.Problem(server.Url(), TimeSpan.FromSeconds(20), CancellationToken.None));
        Assert.Equal("GET / HTTP/1.1", Assert.Single(server.Requests));
    }
}
