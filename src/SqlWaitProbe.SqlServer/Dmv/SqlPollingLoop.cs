using Microsoft.Data.SqlClient;
using Serilog;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Runs a poll every interval on a background task until stopped, for the collectors that read the server while a
/// phase runs. A poll that fails with a server error is counted and its message kept, and the loop goes on: one lost
/// poll only leaves a gap the next one covers.
/// </summary>
internal sealed class SqlPollingLoop
{
    private readonly string _what;
    private readonly CancellationTokenSource _stop;
    private Task? _task;

    private SqlPollingLoop(string what, CancellationToken cancellationToken)
    {
        _what = what;
        _stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
    }

    /// <summary>Polls that failed.</summary>
    public int Failed { get; private set; }

    /// <summary>The last failure, as <c>WHAT failed: message</c>, or null.</summary>
    public string? Error { get; private set; }

    /// <summary>Starts polling with <paramref name="poll"/> every <paramref name="interval"/>; <paramref name="what"/> names it in errors and the log.</summary>
    public static SqlPollingLoop Start(string what, TimeSpan interval, Func<CancellationToken, Task> poll, CancellationToken cancellationToken)
    {
        var loop = new SqlPollingLoop(what, cancellationToken);
        loop._task = loop.RunAsync(interval, poll, loop._stop.Token);
        return loop;
    }

    /// <summary>Stops the loop and waits for a poll under way; what it saw before stays.</summary>
    public async Task StopAsync()
    {
        await _stop.CancelAsync();
        try
        {
            await _task!;
        }
        catch (Exception e) when (e is OperationCanceledException or SqlException)
        {
            // Stopped mid-poll: the collectors take a closing reading of their own where they need one.
        }

        _stop.Dispose();
    }

    private async Task RunAsync(TimeSpan interval, Func<CancellationToken, Task> poll, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval);
        while (await timer.WaitForNextTickAsync(cancellationToken))
        {
            try
            {
                await poll(cancellationToken);
            }
            catch (SqlException e) when (!cancellationToken.IsCancellationRequested)
            {
                Failed++;
                Error = $"{_what} failed: {e.Message}";
                Log.Warning("{What} failed: {Message}", _what, e.Message);
            }
        }
    }
}
