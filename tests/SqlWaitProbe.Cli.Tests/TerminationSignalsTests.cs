using System.Runtime.InteropServices;
using SqlWaitProbe.Cli.Infrastructure;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Ctrl+C and SIGTERM for one invocation. The handler is called directly: a real signal would reach the test host.
/// The end-to-end case (a signal that deletes a scratch run, so the command ends while the signal is still being
/// handled) is <see cref="ScratchCleanupTests"/>.
/// </summary>
public sealed class TerminationSignalsTests
{
    [Fact]
    public async Task The_first_signal_cancels_the_command_and_its_own_exit_code_stands()
    {
        using var signals = TerminationSignals.Begin(TimeSpan.FromMinutes(5));
        var command = Task.Run(async () =>
        {
            try
            {
                await Task.Delay(Timeout.Infinite, signals.Token);
                return 0;
            }
            catch (OperationCanceledException)
            {
                return 130;
            }
        });

        signals.OnSignal(new PosixSignalContext(PosixSignal.SIGTERM));

        Assert.Equal(130, await signals.RunAsync(command).WaitAsync(TimeSpan.FromSeconds(30)));
    }

    [Theory]
    [InlineData(PosixSignal.SIGINT, 130)]
    [InlineData(PosixSignal.SIGTERM, 143)]
    public async Task A_command_that_ignores_the_signal_ends_with_the_signals_exit_code_after_its_grace(PosixSignal signal, int expected)
    {
        using var signals = TerminationSignals.Begin(TimeSpan.FromMilliseconds(100));
        var never = new TaskCompletionSource<int>();
        var run = signals.RunAsync(never.Task);

        var context = new PosixSignalContext(signal);
        signals.OnSignal(context);

        Assert.True(context.Cancel, "the process must not end on the signal itself: the command is given its grace");
        Assert.Equal(expected, await run.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.False(never.Task.IsCompleted);
    }

    [Fact]
    public async Task A_signal_handled_after_the_command_ended_and_the_handlers_were_released_does_nothing()
    {
        var signals = TerminationSignals.Begin(TimeSpan.FromMinutes(5));
        Assert.Equal(0, await signals.RunAsync(Task.FromResult(0)));
        signals.Dispose();

        // The handler of a signal that arrived as the command ended may still run: it must neither throw on the
        // signal thread (a stack trace under "probe: interrupted.") nor end anything.
        var late = new PosixSignalContext(PosixSignal.SIGTERM);
        var error = Record.Exception(() => signals.OnSignal(late));

        Assert.Null(error);
        Assert.True(late.Cancel);
    }

    [Fact]
    public void A_second_signal_is_taken_quietly_and_the_command_stays_cancelled()
    {
        using var signals = TerminationSignals.Begin(TimeSpan.FromMinutes(5));
        signals.OnSignal(new PosixSignalContext(PosixSignal.SIGINT));
        var second = Record.Exception(() => signals.OnSignal(new PosixSignalContext(PosixSignal.SIGINT)));

        Assert.Null(second);
        Assert.True(signals.Token.IsCancellationRequested);
    }
}
