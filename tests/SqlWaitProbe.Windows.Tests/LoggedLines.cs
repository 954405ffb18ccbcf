using Serilog;
using Serilog.Core;
using Serilog.Events;
using Serilog.Formatting.Display;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// What the code under test logs through Serilog's static logger, kept per test: the logger is installed once and hands
/// each event to the list of the test whose flow logged it (threads and tasks it starts included), as the command line
/// hands each event to its own invocation's <c>capture.log</c>. Lines read as <c>capture.log</c> writes them, after the
/// time: the level, then the message.
/// </summary>
internal sealed class LoggedLines
{
    private static readonly AsyncLocal<LoggedLines?> Current = new();
    private static readonly Lock Gate = new();
    private static readonly MessageTemplateTextFormatter Format = new("{Level:u3} {Message:lj}");
    private static bool _installed;
    private readonly List<string> _lines = [];

    private LoggedLines()
    {
    }

    public IReadOnlyList<string> Lines
    {
        get
        {
            lock (_lines)
            {
                return _lines.ToArray();
            }
        }
    }

    /// <summary>Starts keeping what this flow logs from here on. Call it from the test method itself, not from an async method it calls.</summary>
    public static LoggedLines Follow()
    {
        lock (Gate)
        {
            if (!_installed)
            {
                Log.Logger = new LoggerConfiguration().MinimumLevel.Verbose().WriteTo.Sink(new Forward()).CreateLogger();
                _installed = true;
            }
        }

        var lines = new LoggedLines();
        Current.Value = lines;
        return lines;
    }

    private sealed class Forward : ILogEventSink
    {
        public void Emit(LogEvent logEvent)
        {
            if (Current.Value is not { } lines)
            {
                return;
            }

            using var text = new StringWriter(System.Globalization.CultureInfo.InvariantCulture);
            Format.Format(logEvent, text);
            lock (lines._lines)
            {
                lines._lines.Add(text.ToString());
            }
        }
    }
}
