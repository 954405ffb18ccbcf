using Serilog;
using Spectre.Console;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Progress for work longer than a second: a live Spectre.Console status on an interactive terminal,
/// plain timestamped lines on stderr when output is redirected (CI logs and pipes stay clean).
/// </summary>
public static class ProgressReporter
{
    /// <summary>True when stderr is a terminal.</summary>
    public static bool Interactive => !Console.IsErrorRedirected && Environment.GetEnvironmentVariable("CI") is null;

    /// <summary>Runs <paramref name="work"/> showing the messages it reports.</summary>
    public static async Task<T> RunAsync<T>(string title, Func<IProgress<string>, Task<T>> work)
    {
        Log.Information("{Title}", title);
        if (!Interactive)
        {
            Console.Error.WriteLine($"{DateTime.UtcNow:HH:mm:ss}Z {title}");
            return await work(new SynchronousProgress(m =>
            {
                Log.Information("{Progress}", m);
                Console.Error.WriteLine($"{DateTime.UtcNow:HH:mm:ss}Z {m}");
            }));
        }

        var console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Error) });
        return await console.Status().StartAsync(title, async ctx =>
            await work(new SynchronousProgress(m =>
            {
                Log.Information("{Progress}", m);
                ctx.Status(Markup.Escape(m));
                console.MarkupLine($"[grey]{DateTime.UtcNow:HH:mm:ss}Z[/] {Markup.Escape(m)}");
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
