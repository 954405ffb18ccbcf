using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// Interns perf frames. A raw stack line (everything after the address) is looked up without allocating; only
/// a line never seen before is parsed, named and split into its inlined parts.
/// </summary>
internal sealed class PerfFrameCatalog
{
    private readonly PerfFoldOptions _options;
    private readonly Dictionary<PerfFrame, int> _ids = new();
    private readonly List<PerfFrame> _frames = new();
    private readonly List<int> _expansions = new();
    private readonly SpanKeyTable[] _lines = [new(), new()];
    private readonly List<(int Start, int Count)> _ranges = new();

    private readonly Dictionary<string, string> _strings = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string>.AlternateLookup<ReadOnlySpan<char>> _stringLookup;

    public PerfFrameCatalog(PerfFoldOptions options)
    {
        _options = options;
        _stringLookup = _strings.GetAlternateLookup<ReadOnlySpan<char>>();
    }

    /// <summary>Root-frame names by (command, pid, tid), when they carry ids.</summary>
    public Dictionary<(string Comm, int Pid, int Tid), string> ProcessNames { get; } = new();

    /// <summary>One shared instance per distinct text (process names compare by reference afterwards).</summary>
    public string Intern(ReadOnlySpan<char> text)
    {
        if (!_stringLookup.TryGetValue(text, out var s))
        {
            s = text.ToString();
            _strings.Add(s, s);
        }

        return s;
    }

    /// <summary>Number of distinct frames.</summary>
    public int Count => _frames.Count;

    /// <summary>The frame with the given id.</summary>
    public PerfFrame this[int id] => _frames[id];

    /// <summary>
    /// Appends the frame ids of one stack line to <paramref name="leafFirst"/>, innermost inlined part first.
    /// Returns false when the line is not a stack line.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool AppendLine(ReadOnlySpan<char> line, bool javaProcess, List<int> leafFirst)
    {
        line = line.TrimStart();
        var space = line.IndexOf(' ');
        if (space < 0)
        {
            return false;
        }

        // The address only matters for unresolved frames named with --addrs; otherwise the rest of the line decides.
        var key = _options.IncludeAddresses ? line : line[(space + 1)..];
        var table = _lines[javaProcess ? 1 : 0];
        (int Start, int Count) range;
        if (table.TryGetValue(key, out var rangeId))
        {
            range = _ranges[rangeId];
        }
        else
        {
            range = Parse(line, space, javaProcess);
            if (range.Count < 0)
            {
                return false;
            }

            table.Add(key, _ranges.Count);
            _ranges.Add(range);
        }

        var parts = CollectionsMarshal.AsSpan(_expansions).Slice(range.Start, range.Count);
        for (var i = parts.Length - 1; i >= 0; i--)
        {
            leafFirst.Add(parts[i]);
        }

        return true;
    }

    private (int Start, int Count) Parse(ReadOnlySpan<char> line, int space, bool javaProcess)
    {
        var pc = line[..space].TrimEnd();
        var rest = line[(space + 1)..];
        var lastSpace = rest.LastIndexOf(' ');
        if (lastSpace < 0)
        {
            return (0, -1);
        }

        var module = rest[(lastSpace + 1)..];
        if (module.Length < 2 || module[0] != '(' || module[^1] != ')')
        {
            return (0, -1);
        }

        module = module[1..^1];
        var rawFunc = rest[..lastSpace].Trim();
        if (rawFunc.IsEmpty)
        {
            rawFunc = " ";
        }

        rawFunc = PerfFrameNames.StripOffset(rawFunc);
        var start = _expansions.Count;
        if (rawFunc.StartsWith('('))
        {
            // perf prints some process-name pseudo frames in parentheses; folding skips them.
            return (start, 0);
        }

        var func = PerfFrameNames.FixRustSymbol(rawFunc.ToString());
        var kernel = PerfFrameNames.IsKernel(module);
        var jit = PerfFrameNames.IsJit(module);
        var moduleName = PerfFrameNames.BaseName(module).ToString();
        var index = 0;
        foreach (var range in func.AsSpan().Split("->"))
        {
            var part = func.AsSpan(range);
            var name = PerfFrameNames.TidyGeneric(PerfFrameNames.WithModuleFallback(module, part, pc, _options.IncludeAddresses));
            if (javaProcess)
            {
                name = PerfFrameNames.TidyJava(name);
            }

            var kind = index > 0 ? FrameKind.Inlined : kernel ? FrameKind.Kernel : jit ? FrameKind.Jit : FrameKind.User;
            var folded = kind switch
            {
                FrameKind.Inlined => name + "_[i]",
                FrameKind.Kernel when _options.AnnotateKernel => name + "_[k]",
                FrameKind.Jit when _options.AnnotateJit => name + "_[j]",
                _ => name,
            };
            _expansions.Add(Intern(new PerfFrame(folded, new Frame(moduleName, name, kind))));
            index++;
        }

        return (start, index);
    }

    private int Intern(PerfFrame frame)
    {
        if (!_ids.TryGetValue(frame, out var id))
        {
            id = _frames.Count;
            _frames.Add(frame);
            _ids.Add(frame, id);
        }

        return id;
    }
}
