using Serilog;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Phases;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Progress as plain lines, each stamped with its UTC time, reported in order on the calling thread; a phase's
/// state is its one line. What pipes, CI logs and tests see.
/// </summary>
public sealed class PlainProgress(TextWriter error) : IProgress<string>, IProgress<PhaseProgress>
{
    private readonly Lock _gate = new();

    /// <inheritdoc />
    public void Report(string value)
    {
        lock (_gate)
        {
            Log.Information("{Progress}", value);
            error.WriteLine($"{DateTime.UtcNow:HH:mm:ss}Z {TerminalText.Line(value)}");
        }
    }

    /// <inheritdoc />
    public void Report(PhaseProgress value) => Report(value.Text);
}
