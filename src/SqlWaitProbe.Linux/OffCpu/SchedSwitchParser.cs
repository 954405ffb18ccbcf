using System.Globalization;
using System.Text;
using SqlWaitProbe.Linux.Perf;

namespace SqlWaitProbe.Linux.OffCpu;

/// <summary>
/// Reads <c>perf script --show-switch-events</c> output of a <c>sched:sched_switch -g --switch-events</c> recording
/// and pairs each thread's switch out (the tracepoint, with the stack and the state it left in) with its next
/// <c>PERF_RECORD_SWITCH IN</c>: the interval between them is time off the CPU.
/// </summary>
public sealed class SchedSwitchParser
{
    private readonly Dictionary<string, int> _stackIds = new(StringComparer.Ordinal);
    private readonly Dictionary<int, (double Out, char State, int Stack)> _pending = [];
    private readonly ISet<int>? _tids;

    /// <summary>Creates a parser that keeps only <paramref name="tids"/> (null: every thread).</summary>
    public SchedSwitchParser(ISet<int>? tids = null)
    {
        _tids = tids;
    }

    /// <summary>Distinct stacks in the bundle's folded form (process first, then frames root first).</summary>
    public List<string> Stacks { get; } = [];

    /// <summary>Switch-out events read.</summary>
    public long SwitchOuts { get; private set; }

    /// <summary>Reads every line and returns the completed intervals in the order they ended.</summary>
    public List<OffCpuInterval> Parse(TextReader reader)
    {
        var intervals = new List<OffCpuInterval>();
        (int Tid, double Time, char State, string Comm)? switchOut = null;
        var frames = new List<string>();
        while (reader.ReadLine() is { } line)
        {
            if (line.Length > 0 && !char.IsWhiteSpace(line[0]))
            {
                Flush(ref switchOut, frames);
                switchOut = ReadHeader(line, intervals);
            }
            else if (switchOut is not null && line.Trim() is { Length: > 0 } frame)
            {
                frames.Add(ReadFrame(frame));
            }
        }

        Flush(ref switchOut, frames);
        return intervals;
    }

    private (int, double, char, string)? ReadHeader(string line, List<OffCpuInterval> intervals)
    {
        if (!PerfEventLine.TrySplit(line, out var comm, out _, out var tidText, out var end)
            || !int.TryParse(tidText, NumberStyles.Integer, CultureInfo.InvariantCulture, out var tid)
            || (_tids is not null && !_tids.Contains(tid)))
        {
            return null;
        }

        var rest = line.AsSpan(end).TrimStart();
        if (rest.StartsWith('['))
        {
            rest = rest[(rest.IndexOf(']') + 1)..].TrimStart();
        }

        var colon = rest.IndexOf(':');
        if (colon < 0 || !double.TryParse(rest[..colon], NumberStyles.Float, CultureInfo.InvariantCulture, out var time))
        {
            return null;
        }

        var body = rest[(colon + 1)..].TrimStart();
        if (body.StartsWith("PERF_RECORD_SWITCH", StringComparison.Ordinal))
        {
            // Per-task switch records: IN closes the thread's open interval.
            if (body.Contains(" IN", StringComparison.Ordinal) && _pending.Remove(tid, out var open) && time >= open.Out)
            {
                intervals.Add(new OffCpuInterval(tid, open.Out, time, open.State, open.Stack));
            }

            return null;
        }

        if (!body.StartsWith("sched:sched_switch:", StringComparison.Ordinal))
        {
            return null;
        }

        var state = 'S';
        var at = body.IndexOf("prev_state=", StringComparison.Ordinal);
        if (at >= 0 && at + 11 < body.Length)
        {
            state = body[at + 11];
        }

        SwitchOuts++;
        return (tid, time, state, comm.ToString().Replace(' ', '_'));
    }

    private void Flush(ref (int Tid, double Time, char State, string Comm)? switchOut, List<string> frames)
    {
        if (switchOut is { } s)
        {
            // perf prints the leaf first; the bundle's folded form is root first.
            var folded = new StringBuilder(s.Comm);
            for (var i = frames.Count - 1; i >= 0; i--)
            {
                folded.Append(';').Append(frames[i]);
            }

            var key = folded.ToString();
            if (!_stackIds.TryGetValue(key, out var id))
            {
                _stackIds[key] = id = Stacks.Count;
                Stacks.Add(key);
            }

            _pending[s.Tid] = (s.Time, s.State is 'R' or '+' ? 'R' : s.State, id);
        }

        switchOut = null;
        frames.Clear();
    }

    private static string ReadFrame(string frame)
    {
        // "ffffffff821f94c3 schedule+0x43 ([kernel.kallsyms])": address, symbol, module in parentheses.
        var open = PerfFrameNames.ModuleStart(frame);
        var module = open > 0 ? frame.AsSpan(open + 1, frame.Length - open - 2) : "[unknown]".AsSpan();
        var head = open > 0 ? frame.AsSpan(0, open - 1) : frame.AsSpan();
        var space = head.IndexOf(' ');
        var symbol = space >= 0 ? PerfFrameNames.StripOffset(head[(space + 1)..].Trim()) : "[unknown]".AsSpan();
        var moduleName = PerfFrameNames.ModuleName(module);
        if (symbol.SequenceEqual("[unknown]"))
        {
            symbol = moduleName;
        }

        return PerfFrameNames.IsKernel(module) ? $"{moduleName}!{symbol}_[k]" : $"{moduleName}!{symbol}";
    }
}
