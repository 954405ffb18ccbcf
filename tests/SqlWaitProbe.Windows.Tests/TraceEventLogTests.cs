using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>TraceEvent's log, line by line into the probe's log with credentials masked, and bounded.</summary>
public sealed class TraceEventLogTests
{
    [Fact]
    public void Lines_reach_the_probes_log_at_debug_whole_and_with_passwords_masked()
    {
        var logged = LoggedLines.Follow();
        using (var log = TextWriter.Synchronized(new TraceEventLog("symbol reader")))
        {
            log.WriteLine("Created SymbolReader with SymbolPath {0}", @"SRV*C:\cache*https://probe:s3cret-pw@symbols.contoso.example/");
            log.Write("FindSymbolFilePath: In task, ");
            log.Write("sending HTTP request https://symbols.contoso.example/a.pdb/ABC1/a.pdb\r\n");
            log.WriteLine();
            log.WriteLine("\r\nFindSymbolFilePath: Waiting for initial connection");
            log.WriteLine("FindSymbolFilePath: Probe of https://acct.blob.core.windows.net/sym/a.pdb/ABC1/a.pdb?sv=2022-11-02&sig=k3yB4se64%3D failed");
            log.Write("Password=hunter22 left unfinished");
        }

        Assert.Equal(
        [
            @"DBG symbol reader: Created SymbolReader with SymbolPath SRV*C:\cache*https://probe:***@symbols.contoso.example/",
            "DBG symbol reader: FindSymbolFilePath: In task, sending HTTP request https://symbols.contoso.example/a.pdb/ABC1/a.pdb",
            "DBG symbol reader: FindSymbolFilePath: Waiting for initial connection",
            "DBG symbol reader: FindSymbolFilePath: Probe of https://acct.blob.core.windows.net/sym/a.pdb/ABC1/a.pdb?sv=2022-11-02&sig=***",
            "DBG symbol reader: Password=***",
        ], logged.Lines);
    }

    [Fact]
    public void A_flood_of_lines_stops_at_the_cap_with_one_line_saying_so()
    {
        var lines = new List<string>();
        using (var log = new TraceEventLog("ETW merge", lines.Add))
        {
            for (var i = 0; i < TraceEventLog.MaxLines + 500; i++)
            {
                log.WriteLine($"line {i}");
            }
        }

        Assert.Equal(TraceEventLog.MaxLines + 1, lines.Count);
        Assert.Equal($"ETW merge: line {TraceEventLog.MaxLines - 1}", lines[^2]);
        Assert.Equal($"ETW merge: further lines left out after {TraceEventLog.MaxLines}", lines[^1]);
    }
}
