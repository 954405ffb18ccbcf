using System.Globalization;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Runs <c>probe</c> in-process with stdout and stderr captured. Console is process-wide, so every in-process run
/// of the test assembly goes through this one gate.
/// </summary>
internal static class InProcessProbe
{
    private static readonly SemaphoreSlim Gate = new(1, 1);

    public static async Task<(int Exit, string Out, string Err)> RunAsync(params string[] args)
    {
        await Gate.WaitAsync();
        var (oldOut, oldErr) = (Console.Out, Console.Error);
        var (stdout, stderr) = (new StringWriter(CultureInfo.InvariantCulture), new StringWriter(CultureInfo.InvariantCulture));
        try
        {
            Console.SetOut(stdout);
            Console.SetError(stderr);
            Environment.SetEnvironmentVariable("CI", "1");
            var exit = await Program.Main(args);
            return (exit, stdout.ToString(), stderr.ToString());
        }
        finally
        {
            Console.SetOut(oldOut);
            Console.SetError(oldErr);
            Gate.Release();
        }
    }
}
