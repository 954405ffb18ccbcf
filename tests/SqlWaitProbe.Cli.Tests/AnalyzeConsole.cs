using SqlWaitProbe.Cli;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>Runs probe in-process with stdout and stderr captured (tests using it share one collection, since Console is global).</summary>
internal static class AnalyzeConsole
{
    private static readonly SemaphoreSlim Gate = new(1, 1);

    public static async Task<(int Exit, string Out, string Err)> RunAsync(params string[] args)
    {
        await Gate.WaitAsync();
        var (oldOut, oldErr) = (Console.Out, Console.Error);
        var (stdout, stderr) = (new StringWriter(), new StringWriter());
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
