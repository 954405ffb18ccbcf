using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// SQL Server connection strings whose password is quoted (a ';', a quote or a space inside it) or given as <c>Pwd=</c>:
/// the dry run, <c>probe check</c> and a capture that cannot reach the server (there is none on this machine) print the
/// password nowhere, and the failed bundle's manifest and capture.log hold <c>Password=***</c> only.
/// </summary>
public sealed class SqlServerPasswordFormsTests
{
    private const string Stem = "Sq;l'Pw";

    public static TheoryData<string> Forms() => new()
    {
        "Server=127.0.0.1,1;User ID=sa;Password=\"Sq;l'Pw 9\"\"x\";Connect Timeout=2",
        "Server=127.0.0.1,1;User ID=sa;Password = 'Sq;l''Pw 9';Connect Timeout=2",
        "Data Source=127.0.0.1,1;UID=sa;PWD=\"Sq;l'Pw9\";Connect Timeout=2",
    };

    [Theory]
    [MemberData(nameof(Forms))]
    public async Task A_quoted_password_is_printed_and_stored_nowhere(string server)
    {
        var bundle = Path.Combine(TestData.TempFolder("sqlserver-forms"), "bundle");
        var dryRun = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "capture", "--engine", "sqlserver", "--server", server, "--attach", "--dry-run", "-v");
        var check = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "check", "--engine", "sqlserver", "--server", server, "-v");
        var capture = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(1), "capture", "--engine", "sqlserver", "--server", server, "--attach", "--duration", "1s", "--no-analyze", "-v", "-o", bundle);

        Assert.True(dryRun.Exit == 0, dryRun.Err);
        Assert.Equal(1, check.Exit);
        Assert.Equal(1, capture.Exit);
        var manifest = File.ReadAllText(Path.Combine(bundle, "manifest.json"));
        Assert.Contains("***", manifest);
        foreach (var text in new[] { dryRun.Out, dryRun.Err, check.Out, check.Err, capture.Out, capture.Err, manifest, File.ReadAllText(Path.Combine(bundle, "capture.log")) })
        {
            Assert.DoesNotContain(Stem, text);
            Assert.DoesNotContain("Pw9", text);
            Assert.DoesNotContain("Pw 9", text);
        }
    }
}
