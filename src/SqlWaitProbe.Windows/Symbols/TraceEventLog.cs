using System.Text;
using Serilog;
using SqlWaitProbe.Core.Secrets;

namespace SqlWaitProbe.Windows.Symbols;

/// <summary>
/// The log TraceEvent writes while it looks up symbols or merges a trace, line by line into the probe's log (the
/// capture's <c>capture.log</c>, at debug level) instead of a writer that discards it. Each line goes through the
/// credential rules first: the reader repeats its symbol path and every address it asks, and a symbol server's
/// address may carry a password. At most <see cref="MaxLines"/> lines are kept, then one line says the rest was left out.
/// </summary>
public sealed class TraceEventLog : TextWriter
{
    /// <summary>Lines kept per writer: a phase's lookup of a dozen modules writes a few hundred.</summary>
    public const int MaxLines = 2000;

    private readonly string _source;
    private readonly Action<string> _line;
    private readonly StringBuilder _pending = new();
    private readonly Lock _gate = new();
    private int _written;

    /// <summary>
    /// A writer whose lines, prefixed with <paramref name="source"/> (e.g. <c>symbol reader</c>), go to
    /// <paramref name="line"/>; by default to the probe's log at debug level.
    /// </summary>
    public TraceEventLog(string source, Action<string>? line = null)
    {
        _source = source ?? throw new ArgumentNullException(nameof(source));
        _line = line ?? (text => Log.Debug("{Line}", text));
    }

    /// <inheritdoc />
    public override Encoding Encoding => Encoding.UTF8;

    /// <inheritdoc />
    public override void Write(char value)
    {
        lock (_gate)
        {
            Append(value);
        }
    }

    /// <inheritdoc />
    public override void Write(string? value)
    {
        lock (_gate)
        {
            foreach (var c in value ?? string.Empty)
            {
                Append(c);
            }
        }
    }

    /// <inheritdoc />
    public override void WriteLine(string? value)
    {
        lock (_gate)
        {
            foreach (var c in value ?? string.Empty)
            {
                Append(c);
            }

            Emit();
        }
    }

    /// <inheritdoc />
    public override void Flush()
    {
        lock (_gate)
        {
            Emit();
        }
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            Flush();
        }

        base.Dispose(disposing);
    }

    private void Append(char value)
    {
        if (value == '\n')
        {
            Emit();
        }
        else if (value != '\r')
        {
            _pending.Append(value);
        }
    }

    private void Emit()
    {
        var text = _pending.ToString().Trim();
        _pending.Clear();
        if (text.Length == 0 || _written > MaxLines)
        {
            return;
        }

        _written++;
        _line(_written > MaxLines
            ? $"{_source}: further lines left out after {MaxLines}"
            : $"{_source}: {CredentialRules.Redact(text)}");
    }
}
