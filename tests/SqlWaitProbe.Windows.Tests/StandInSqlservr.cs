using System.Diagnostics;
using System.Runtime.Versioning;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// Processes named <c>sqlservr</c> standing in for SQL Server on a Windows machine that has none (the Windows CI job):
/// copies of <c>cmd.exe</c> under that name, each busy in an endless loop or idle waiting for input. ETW and PDH see
/// them as they would see SQL Server's process: by image name and pid.
/// </summary>
[SupportedOSPlatform("windows")]
internal sealed class StandInSqlservr : IDisposable
{
    private readonly string _folder;
    private readonly List<Process> _all = [];

    private StandInSqlservr(string folder) => _folder = folder;

    public IReadOnlyList<Process> All => _all;

    public static StandInSqlservr Create()
    {
        var folder = SqlWaitProbe.TestSupport.TestData.TempFolder("stand-in-sqlservr");
        File.Copy(Path.Combine(Environment.SystemDirectory, "cmd.exe"), Path.Combine(folder, "sqlservr.exe"));
        return new StandInSqlservr(folder);
    }

    /// <summary>Starts one that keeps a CPU busy.</summary>
    public Process StartBusy() => Start("/d /c \"for /l %i in (0,0,1) do @rem\"", redirectInput: false);

    /// <summary>Starts one that waits for input and uses no CPU.</summary>
    public Process StartIdle() => Start("/d /k", redirectInput: true);

    public void Dispose()
    {
        foreach (var process in _all)
        {
            try
            {
                if (!process.HasExited)
                {
                    process.Kill(entireProcessTree: true);
                    process.WaitForExit(10_000);
                }
            }
            catch (InvalidOperationException)
            {
            }

            process.Dispose();
        }

        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    private Process Start(string arguments, bool redirectInput)
    {
        var process = Process.Start(new ProcessStartInfo(Path.Combine(_folder, "sqlservr.exe"), arguments)
        {
            UseShellExecute = false,
            CreateNoWindow = true,
            RedirectStandardInput = redirectInput,
        }) ?? throw new InvalidOperationException("the stand-in sqlservr did not start");
        _all.Add(process);
        return process;
    }
}
