using System.Runtime.CompilerServices;
using System.Globalization;
using System.Runtime.InteropServices;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// The <c>perf script</c> state machine: an event line, its stack lines (leaf first), a blank line. Follows
/// inferno-collapse-perf's rules so folded output matches it: <c>#</c> lines skipped, only the first event type
/// kept, event lines that carry their single frame inline, weight = the period when perf printed one, else 1.
/// Pull-based: <see cref="Next"/> advances to the next complete sample.
/// </summary>
internal sealed class PerfScriptParser : IDisposable
{
    private readonly IPerfLineSource _source;
    private readonly PerfFoldOptions _options;
    private readonly List<int> _leafFirst = new(128);
    private string? _eventFilter;
    private bool _inEvent;
    private bool _skipStack;
    private bool _sawContent;
    private bool _javaProcess;
    private bool _finished;
    private PerfSampleHeader _pending;
    private PerfSampleHeader _current;
    private long _pendingLine;
    private int[] _rootFirst = new int[128];
    private int _rootFirstCount;

    public PerfScriptParser(IPerfLineSource source, PerfFoldOptions options, PerfFrameCatalog catalog, string? eventFilter = null)
    {
        _source = source;
        _options = options;
        Catalog = catalog;
        _eventFilter = eventFilter;

        // A parser given the event type continues a file whose start was already checked.
        _sawContent = eventFilter is not null;
        RequireSamples = eventFilter is null;
    }

    /// <summary>When set (a whole file), ending without a single sample is bad input; block parsers leave that to their caller.</summary>
    public bool RequireSamples { get; init; }

    /// <summary>The frames seen so far.</summary>
    public PerfFrameCatalog Catalog { get; }

    /// <summary>The current sample's process, thread, time and weight.</summary>
    public PerfSampleHeader Current => _current;

    /// <summary>The line number of the current sample's event line (its weight is read from there).</summary>
    public long CurrentLine { get; private set; }

    /// <summary>The current sample's frame ids, root first.</summary>
    public ReadOnlySpan<int> CurrentFrames => _rootFirst.AsSpan(0, _rootFirstCount);

    /// <summary>Samples returned so far.</summary>
    public long Samples { get; private set; }

    /// <summary>The event type kept (the first one in the file), once known.</summary>
    public string? EventName => _eventFilter;

    /// <summary>Advances to the next sample with a non-empty stack; false at the end of the file.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool Next()
    {
        while (!_finished)
        {
            if (!_source.TryReadLine(out var line))
            {
                _finished = true;
                if (_leafFirst.Count > 0 && Complete())
                {
                    return true;
                }

                if (Samples == 0 && RequireSamples)
                {
                    throw _sawContent
                        ? _source.Problem("no samples with call stacks in this perf script output (record with -g)")
                        : _source.Problem("no perf samples: the file holds only comments or blank lines");
                }

                return false;
            }

            if (line.Length > 0 && line[0] == '#')
            {
                continue;
            }

            line = line.TrimEnd();
            if (line.IsEmpty)
            {
                if (Complete())
                {
                    return true;
                }
            }
            else if (_inEvent)
            {
                OnStackLine(line);
            }
            else
            {
                OnEventLine(line);
                if (_leafFirst.Count > 0 && Complete())
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <inheritdoc />
    public void Dispose() => _source.Dispose();

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool Complete()
    {
        var emitted = false;
        Catalog.EndStack(_leafFirst);
        if (_leafFirst.Count > 0)
        {
            var frames = CollectionsMarshal.AsSpan(_leafFirst);
            if (_rootFirst.Length < frames.Length)
            {
                _rootFirst = new int[Math.Max(frames.Length, _rootFirst.Length * 2)];
            }

            for (var i = 0; i < frames.Length; i++)
            {
                _rootFirst[i] = frames[frames.Length - 1 - i];
            }

            _rootFirstCount = frames.Length;
            _current = _pending;
            CurrentLine = _pendingLine;
            Samples++;
            emitted = true;
        }

        _inEvent = false;
        _skipStack = false;
        _leafFirst.Clear();
        return emitted;
    }

    private void OnStackLine(ReadOnlySpan<char> line)
    {
        if (!_skipStack)
        {
            // Lines that are neither frames nor events (a stray word) are skipped, as inferno does.
            Catalog.AppendLine(line, _javaProcess, _leafFirst);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void OnEventLine(ReadOnlySpan<char> line)
    {
        _inEvent = true;
        if (!PerfEventLine.TrySplit(line, out var comm, out var pidText, out var tidText, out var end))
        {
            if (!_sawContent)
            {
                throw _source.Problem("this is not perf script output: expected an event line such as 'COMM PID [CPU] TIME: PERIOD EVENT:'");
            }

            _inEvent = false;
            return;
        }

        _sawContent = true;
        var rest = line[end..];
        var firstColon = rest.IndexOf(':');
        ReadOnlySpan<char> inlineFrame = default;
        long period = 1;
        if (firstColon >= 0)
        {
            var afterTime = rest[(firstColon + 1)..];
            var secondColon = afterTime.IndexOf(':');
            var eventPart = secondColon < 0 ? afterTime : afterTime[..secondColon];
            var lastSpace = eventPart.LastIndexOf(' ');
            var eventName = eventPart[(lastSpace + 1)..];
            if (_eventFilter is null)
            {
                _eventFilter = eventName.ToString();
            }
            else if (!eventName.SequenceEqual(_eventFilter))
            {
                _skipStack = true;
                return;
            }

            if (lastSpace > 0)
            {
                var before = eventPart[..lastSpace].TrimEnd();
                var periodText = before[(before.LastIndexOf(' ') + 1)..];
                if (!periodText.IsEmpty && long.TryParse(periodText, NumberStyles.None, CultureInfo.InvariantCulture, out var p))
                {
                    period = p;
                }
            }

            if (secondColon >= 0)
            {
                var post = afterTime[(secondColon + 1)..];
                var cut = post.IndexOfAny(':', ' ');
                inlineFrame = post[(cut + 1)..].Trim();
            }
        }

        var pid = ParseId(pidText);
        var tid = ParseId(tidText);
        var commText = Intern(comm);
        ParseTimeAndCpu(firstColon >= 0 ? rest[..firstColon] : default, out var cpu, out var time);
        var process = ProcessName(commText, pidText, pid, tid);
        _javaProcess = process == "java";
        _pending = new PerfSampleHeader(commText, process, pid, tid, cpu, time, period);
        _pendingLine = _source.LineNumber;

        if (!inlineFrame.IsEmpty)
        {
            OnStackLine(inlineFrame);
            _inEvent = false;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private string ProcessName(string comm, ReadOnlySpan<char> pidText, int pid, int tid)
    {
        if (!_options.IncludePid && !_options.IncludeTid)
        {
            return comm.Contains(' ') ? Intern(comm.Replace(' ', '_')) : comm;
        }

        var key = (comm, pid, _options.IncludeTid ? tid : 0);
        if (!Catalog.ProcessNames.TryGetValue(key, out var name))
        {
            var pidShown = pidText.IsEmpty ? "?" : pidText.ToString();
            name = comm.Replace(' ', '_') + "-" + pidShown + (_options.IncludeTid ? "/" + tid.ToString(CultureInfo.InvariantCulture) : string.Empty);
            Catalog.ProcessNames.Add(key, name);
        }

        return name;
    }

    private string Intern(ReadOnlySpan<char> text) => Catalog.Intern(text);

    private static int ParseId(ReadOnlySpan<char> text) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var id) ? id : -1;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void ParseTimeAndCpu(ReadOnlySpan<char> head, out int cpu, out double time)
    {
        cpu = -1;
        time = double.NaN;
        head = head.Trim();
        var lastSpace = head.LastIndexOf(' ');
        var timeText = head[(lastSpace + 1)..];
        if (double.TryParse(timeText, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var t))
        {
            time = t;
        }

        var open = head.IndexOf('[');
        if (open >= 0)
        {
            var close = head[open..].IndexOf(']');
            if (close > 1 && int.TryParse(head.Slice(open + 1, close - 1), NumberStyles.None, CultureInfo.InvariantCulture, out var c))
            {
                cpu = c;
            }
        }
    }
}
