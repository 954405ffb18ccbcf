using Serilog;
using Serilog.Core;
using Serilog.Events;
using Serilog.Formatting.Display;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Logging per invocation. The libraries log through Serilog's static <see cref="Log"/>; that logger is installed
/// once and forwards each event to the logger of the invocation it belongs to (an <see cref="AsyncLocal{T}"/> that
/// flows into its tasks, timers and threads), which writes to that invocation's console and log file. Two
/// in-process runs (tests) therefore never write into each other's console or <c>capture.log</c>.
/// </summary>
public static class ProbeLog
{
    /// <summary>Console log lines: the time of day in UTC, marked as such.</summary>
    public const string ConsoleTemplate = "{UtcTimestamp:HH:mm:ss}Z {Level:u3} {Message:lj}{NewLine}";

    /// <summary>Log file lines: ISO-8601 UTC times (Serilog's UtcTimestamp, whatever the machine's time zone).</summary>
    public const string FileTemplate = "{UtcTimestamp:yyyy-MM-ddTHH:mm:ss.fffZ} {Level:u3} {Message:lj}{NewLine}{Exception}";
    private static readonly AsyncLocal<Logger?> Current = new();
    private static readonly Lock Gate = new();
    private static bool _installed;

    /// <summary>
    /// A logger for one invocation: <paramref name="console"/>'s error stream at warning (debug with
    /// <paramref name="verbose"/>), plus <paramref name="file"/> at debug when given. Dispose it to close the file.
    /// </summary>
    public static Logger Create(IProbeConsole console, bool verbose, string? file)
    {
        Install();
        var config = new LoggerConfiguration()
            .MinimumLevel.Debug()
            .WriteTo.Sink(new TextWriterSink(console.Error, new MessageTemplateTextFormatter(ConsoleTemplate)), verbose ? LogEventLevel.Debug : LogEventLevel.Warning);
        if (file is not null)
        {
            config = config.WriteTo.File(file, outputTemplate: FileTemplate);
        }

        return config.CreateLogger();
    }

    /// <summary>
    /// Makes <paramref name="logger"/> the one the current invocation logs to, from here on in this flow and what it
    /// starts; returns the one it replaces. Call it from a method that is not <c>async</c> (or at the top of the
    /// <c>async</c> method whose flow it is meant for): an <c>async</c> method's changes end when it returns.
    /// </summary>
    public static Logger? Swap(Logger? logger)
    {
        var previous = Current.Value;
        Current.Value = logger;
        return previous;
    }

    private static void Install()
    {
        lock (Gate)
        {
            if (_installed)
            {
                return;
            }

            Log.Logger = new LoggerConfiguration().MinimumLevel.Verbose().WriteTo.Sink(new AmbientSink()).CreateLogger();
            _installed = true;
        }
    }

    /// <summary>Forwards to the current invocation's logger; drops events logged outside any invocation.</summary>
    private sealed class AmbientSink : ILogEventSink
    {
        public void Emit(LogEvent logEvent) => Current.Value?.Write(logEvent);
    }

    /// <summary>Writes formatted events to a text writer, one at a time.</summary>
    private sealed class TextWriterSink(TextWriter writer, MessageTemplateTextFormatter formatter) : ILogEventSink
    {
        private readonly Lock _gate = new();

        public void Emit(LogEvent logEvent)
        {
            lock (_gate)
            {
                // A log line may quote a bundle's text; it reaches the terminal without its escapes.
                using var line = new StringWriter(System.Globalization.CultureInfo.InvariantCulture);
                formatter.Format(logEvent, line);
                writer.Write(Core.Text.TerminalText.Lines(line.ToString()));
                writer.Flush();
            }
        }
    }
}
