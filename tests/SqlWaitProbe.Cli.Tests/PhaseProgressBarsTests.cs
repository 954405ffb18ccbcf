using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Phases;
using Spectre.Console;
using Xunit;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>The terminal progress bar, rendered by Spectre to a text writer, and the plain lines that pipes see.</summary>
public sealed class PhaseProgressBarsTests
{
    private static PhaseProgress State(long executions, double elapsed, bool done = false, long? running = null) =>
        new("phase-2", 2, executions, running, elapsed, 30, null, done ? "done" : "collecting", done, $"plain line {executions}");

    [Fact]
    public async Task A_phase_bar_shows_phase_sessions_executions_and_time_left_and_no_plain_lines()
    {
        // Spectre.Console.Testing is not served for this Spectre.Console version: a non-interactive console on a
        // StringWriter draws the same bars through Spectre's fallback renderer.
        var output = new StringWriter();
        var synchronised = TextWriter.Synchronized(output);
        string Text()
        {
            lock (synchronised)
            {
                return output.ToString();
            }
        }

        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Interactive = InteractionSupport.No, Out = new AnsiConsoleOutput(synchronised),
        });
        console.Profile.Width = 200;

        // The fallback renderer draws running tasks only: the bar at 12 of 30 s is 40% full.
        const string Running = "phase phase-2: 2 session(s), 10 executions, 12 s of 30 s (18 s left), collecting: 40%";
        var result = await PhaseProgressBars.RunAsync(console, "capture demo", async progress =>
        {
            progress.Report("phase phase-2: opening 2 session(s)");
            PhaseProgress.Report(progress, State(10, 12.2));

            // Spectre redraws on its own refresh tick, which a loaded machine runs late: the running state's bar is
            // waited for before the next state replaces it.
            var waited = System.Diagnostics.Stopwatch.StartNew();
            while (!Text().Contains(Running, StringComparison.Ordinal) && waited.Elapsed < TimeSpan.FromSeconds(60))
            {
                await Task.Delay(50);
            }

            PhaseProgress.Report(progress, State(28, 30, done: true));
            await Task.Delay(1200);
            return 7;
        });

        Assert.Equal(7, result);
        var text = Text();
        Assert.Contains("phase phase-2: opening 2 session(s)", text);
        Assert.Contains(Running, text);
        // The per-second state is drawn in the bar, never printed as its plain line.
        Assert.DoesNotContain("plain line", text);
    }

    [Fact]
    public void The_last_bar_text_is_the_summary_count()
    {
        Assert.Equal("phase phase-2: 2 session(s), 28 executions in the summary, 30 s of 30 s (0 s left), done",
            PhaseProgressBars.Describe(State(28, 30, done: true)));
    }

    [Fact]
    public void The_bar_text_says_which_executions_run_past_the_phase_end()
    {
        Assert.Equal("phase phase-2: 2 session(s), 10 executions (+12 running past the phase end, measured up to it), 30 s of 30 s (0 s left), waiting for the running executions",
            PhaseProgressBars.Describe(new PhaseProgress("phase-2", 2, 10, 12, 30, 30, null, "waiting for the running executions", false, "plain")));
    }

    [Fact]
    public void Without_a_terminal_each_phase_state_is_its_plain_line()
    {
        var error = new StringWriter();
        var progress = new PlainProgress(error);
        PhaseProgress.Report(progress, State(10, 12.2));
        progress.Report("analysing the bundle");

        var lines = error.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        Assert.Matches(@"^\d\d:\d\d:\d\dZ plain line 10$", lines[0]);
        Assert.EndsWith("Z analysing the bundle", lines[1]);
    }
}
