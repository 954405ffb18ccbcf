using Serilog;
using Spectre.Console;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Progress for work longer than a second: a live Spectre.Console status on an interactive terminal,
/// plain timestamped lines on stderr when output is redirected (CI logs and pipes stay clean).
/// </summary>
public static class ProgressReporter
{
    /// <summary>True when <paramref name="console"/>'s stderr is a terminal and this is not a CI run.</summary>
    public static bool Interactive(IProbeConsole console) => !console.IsErrorRedirected && Environment.GetEnvironmentVariable("CI") is null;

    /// <summary>Runs <paramref name="work"/> showing the messages it reports on <paramref name="console"/>.</summary>
    public static async Task<T> RunAsync<T>(IProbeConsole console, string title, Func<IProgress<string>, Task<T>> work)
    {
        Log.Information("{Title}", title);
        if (!Interactive(console))
        {
            console.Error.WriteLine($"{DateTime.UtcNow:HH:mm:ss}Z {title}");
            return await work(new SynchronousProgress(m =>
            {
                Log.Information("{Progress}", m);
                console.Error.WriteLine($"{DateTime.UtcNow:HH:mm:ss}Z {m}");
            }));
        }

        var ansi = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(console.Error) });
        return await ansi.Status().StartAsync(title, async ctx =>
            await work(new SynchronousProgress(m =>
            {
                Log.Information("{Progress}", m);
                ctx.Status(Markup.Escape(m));
                ansi.MarkupLine($"[grey]{DateTime.UtcNow:HH:mm:ss}Z[/] {Markup.Escape(m)}");
            })));
    }

    /// <summary>An <see cref="IProgress{T}"/> that reports on the calling thread, in order.</summary>
    private sealed class SynchronousProgress(Action<string> report) : IProgress<string>
    {
        private readonly Lock _gate = new();

        public void Report(string value)
        {
            lock (_gate)
            {
                report(value);
            }
        }
    }
}
