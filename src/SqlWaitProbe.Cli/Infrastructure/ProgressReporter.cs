using Serilog;
using Spectre.Console;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Progress for work longer than a second: on an interactive terminal a Spectre.Console progress bar per capture
/// phase with the other messages as lines above it; plain timestamped lines on stderr otherwise (redirected stderr,
/// CI, <c>--format json</c>), so CI logs and pipes stay clean.
/// </summary>
public static class ProgressReporter
{
    /// <summary>True when <paramref name="console"/>'s stderr is a terminal and this is not a CI run.</summary>
    public static bool Interactive(IProbeConsole console) => !console.IsErrorRedirected && Environment.GetEnvironmentVariable("CI") is null;

    /// <summary>
    /// Runs <paramref name="work"/> showing the messages it reports on <paramref name="console"/>; <paramref name="plain"/>
    /// asks for plain lines even on a terminal (a script reads stdout as JSON).
    /// </summary>
    public static async Task<T> RunAsync<T>(IProbeConsole console, string title, Func<IProgress<string>, Task<T>> work, bool plain = false)
    {
        Log.Information("{Title}", title);
        if (plain || !Interactive(console))
        {
            console.Error.WriteLine($"{DateTime.UtcNow:HH:mm:ss}Z {TerminalText.Line(title)}");
            return await work(new PlainProgress(console.Error));
        }

        var ansi = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(console.Error) });
        return await PhaseProgressBars.RunAsync(ansi, title, work);
    }
}
