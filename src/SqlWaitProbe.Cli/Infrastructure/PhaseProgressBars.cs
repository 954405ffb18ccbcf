using System.Globalization;
using Serilog;
using Spectre.Console;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Phases;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// The terminal progress display: one Spectre.Console progress bar per capture phase (phase name, sessions,
/// executions the summary will count, elapsed and remaining of the phase's duration), every other message as a
/// timestamped line above the bars. The per-second phase states go to the bars and the log, not to lines.
/// </summary>
public static class PhaseProgressBars
{
    /// <summary>Runs <paramref name="work"/> drawing its progress on <paramref name="ansi"/>.</summary>
    public static async Task<T> RunAsync<T>(IAnsiConsole ansi, string title, Func<IProgress<string>, Task<T>> work)
    {
        ansi.MarkupLine($"[grey]{DateTime.UtcNow:HH:mm:ss}Z[/] {Markup.Escape(TerminalText.Line(title))}");
        return await ansi.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new SpinnerColumn())
            .StartAsync(async context => await work(new Sink(ansi, context)));
    }

    /// <summary>The text beside a phase's bar.</summary>
    public static string Describe(PhaseProgress state)
    {
        var time = state.DurationSeconds is { } duration
            ? string.Create(CultureInfo.InvariantCulture, $"{state.ElapsedSeconds:0} s of {duration:0} s ({Math.Max(0, duration - state.ElapsedSeconds):0} s left)")
            : state.IterationsTotal is { } total
                ? string.Create(CultureInfo.InvariantCulture, $"{state.ElapsedSeconds:0} s, {total} iterations shared by the sessions")
                : string.Create(CultureInfo.InvariantCulture, $"{state.ElapsedSeconds:0} s, {state.Iterations} iterations per session");
        var running = state.Running is > 0 ? $" (+{state.Running} running past the phase end, measured up to it)" : "";
        var executions = state.Done ? $"{Figures.Count(state.Executions, "execution")} in the summary" : $"{Figures.Count(state.Executions, "execution")}{running}";
        return $"phase {state.Phase}: {state.Sessions} session(s), {executions}, {time}, {state.State}";
    }

    private sealed class Sink(IAnsiConsole ansi, ProgressContext context) : IProgress<string>, IProgress<PhaseProgress>
    {
        private readonly Lock _gate = new();
        private readonly Dictionary<string, ProgressTask> _tasks = new(StringComparer.Ordinal);

        public void Report(string value)
        {
            lock (_gate)
            {
                Log.Information("{Progress}", value);
                ansi.MarkupLine($"[grey]{DateTime.UtcNow:HH:mm:ss}Z[/] {Markup.Escape(TerminalText.Line(value))}");
            }
        }

        public void Report(PhaseProgress value)
        {
            lock (_gate)
            {
                Log.Information("{Progress}", value.Text);
                // Without a duration the bar fills with executions, the phase's own measure of completion.
                var max = value.DurationSeconds ?? Math.Max(1, value.IterationsTotal ?? (value.Iterations ?? 1) * value.Sessions);
                if (!_tasks.TryGetValue(value.Phase, out var task))
                {
                    task = context.AddTask(Markup.Escape(TerminalText.Line(Describe(value))), autoStart: true, maxValue: max);
                    _tasks[value.Phase] = task;
                }

                task.Description = Markup.Escape(TerminalText.Line(Describe(value)));
                task.Value = value.Done ? max : Math.Min(max, value.DurationSeconds is null ? value.Executions : value.ElapsedSeconds);
                if (value.Done)
                {
                    task.StopTask();
                }
            }
        }
    }
}
