namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Runs <c>probe</c> in-process with its own <see cref="TestConsole"/>: nothing process-wide is redirected, so
/// in-process runs need no gate and run in parallel.
/// </summary>
internal static class InProcessProbe
{
    public static async Task<(int Exit, string Out, string Err)> RunAsync(params string[] args)
    {
        var console = new TestConsole();
        var exit = await Program.RunAsync(args, console);
        return (exit, console.OutText, console.ErrorText);
    }
}
