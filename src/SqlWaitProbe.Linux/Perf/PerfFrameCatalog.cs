using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// Interns perf frames. A raw stack line (everything after the address) is looked up without allocating; only
/// a line never seen before is parsed, named and split into its inlined parts.
/// </summary>
/// <remarks>
/// perf prints an inlined function as <c>ADDR name+off (inlined)</c>, without its module. The inline chain of one
/// address is printed innermost first and ends with the real function and its module on a line with the same
/// address, when perf's symbol table names that function as the debug information does; when the names differ
/// (glibc's versioned and aliased symbols: <c>__libc_start_main_impl</c> is <c>__libc_start_main@@GLIBC_2.34</c>)
/// every line of the chain is <c>(inlined)</c> and the text does not say which module the address belongs to. So an
/// inlined frame takes the module of the same-address real frame that closes its chain, a kernel address takes the
/// kernel, and any other stays in <c>[unknown]</c>: the neighbouring frames are callers and callees, often in
/// other modules, and are never borrowed from. Folded names do not change (inferno-collapse-perf ignores modules).
/// </remarks>
internal sealed class PerfFrameCatalog
{
    // Where the kernel's addresses start on 64-bit machines (the canonical upper half).
    private const ulong KernelAddressStart = 0xffff800000000000;
    private const string KernelModule = "[kernel.kallsyms]";
    private const string UnknownModule = "[unknown]";

    private readonly PerfFoldOptions _options;
    private readonly Dictionary<PerfFrame, int> _ids = new();
    private readonly List<PerfFrame> _frames = new();
    private readonly List<int> _expansions = new();
    private readonly SpanKeyTable[] _lines = [new(), new()];
    private readonly List<(int Start, int Count, bool Inlined)> _ranges = new();
    private readonly Dictionary<(int Id, string Module), int> _withModule = new();

    // The current stack's inlined frames that wait for the real frame closing their chain: positions in the
    // leaf-first list and the chain's address.
    private readonly List<int> _pending = new();
    private ulong _pendingAddress;

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
        (int Start, int Count, bool Inlined) range;
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

        if (range.Inlined || _pending.Count > 0)
        {
            ResolveInlined(line[..space], range, leafFirst);
        }

        var parts = CollectionsMarshal.AsSpan(_expansions).Slice(range.Start, range.Count);
        for (var i = parts.Length - 1; i >= 0; i--)
        {
            leafFirst.Add(parts[i]);
        }

        return true;
    }

    /// <summary>
    /// Ends a stack: its inlined frames still waiting for a real frame at their address keep <c>[unknown]</c>, or
    /// take the kernel for a kernel address.
    /// </summary>
    public void EndStack(List<int> leafFirst) => SettlePending(leafFirst, null);

    private void ResolveInlined(ReadOnlySpan<char> pcText, (int Start, int Count, bool Inlined) range, List<int> leafFirst)
    {
        var known = ulong.TryParse(pcText, System.Globalization.NumberStyles.AllowHexSpecifier, System.Globalization.CultureInfo.InvariantCulture, out var pc);
        if (_pending.Count > 0)
        {
            var sameAddress = known && pc == _pendingAddress;
            if (sameAddress && !range.Inlined && range.Count > 0)
            {
                // The real frame closing the chain: every inlined frame of that address lives in its module.
                SettlePending(leafFirst, _frames[_expansions[range.Start]].Frame);
            }
            else if (!sameAddress)
            {
                SettlePending(leafFirst, null);
            }
        }

        if (range.Inlined && known)
        {
            _pendingAddress = pc;
            for (var i = 0; i < range.Count; i++)
            {
                _pending.Add(leafFirst.Count + i);
            }
        }
    }

    private void SettlePending(List<int> leafFirst, Frame? real)
    {
        foreach (var position in _pending)
        {
            if (real is { } r)
            {
                leafFirst[position] = WithModule(leafFirst[position], r.Module, r.Kind == FrameKind.Inlined ? FrameKind.User : r.Kind);
            }
            else if (_pendingAddress >= KernelAddressStart)
            {
                leafFirst[position] = WithModule(leafFirst[position], KernelModule, FrameKind.Kernel);
            }
        }

        _pending.Clear();
    }

    private int WithModule(int id, string module, FrameKind kind)
    {
        if (!_withModule.TryGetValue((id, module), out var resolved))
        {
            var frame = _frames[id];
            resolved = Intern(frame with { Frame = new Frame(module, frame.Frame.Symbol, kind) });
            _withModule.Add((id, module), resolved);
        }

        return resolved;
    }

    private (int Start, int Count, bool Inlined) Parse(ReadOnlySpan<char> line, int space, bool javaProcess)
    {
        var pc = line[..space].TrimEnd();
        var rest = line[(space + 1)..];
        var open = PerfFrameNames.ModuleStart(rest);
        if (open < 0)
        {
            return (0, -1, false);
        }

        var module = rest[(open + 1)..^1];
        var inlined = module.SequenceEqual("inlined");
        var rawFunc = rest[..open].Trim();
        if (rawFunc.IsEmpty)
        {
            rawFunc = " ";
        }

        rawFunc = PerfFrameNames.StripOffset(rawFunc);
        var start = _expansions.Count;
        if (rawFunc.StartsWith('('))
        {
            // perf prints some process-name pseudo frames in parentheses; folding skips them.
            return (start, 0, false);
        }

        var func = PerfFrameNames.FixRustSymbol(rawFunc.ToString());
        var kernel = PerfFrameNames.IsKernel(module);
        var jit = PerfFrameNames.IsJit(module);
        var moduleName = inlined ? UnknownModule : PerfFrameNames.ModuleName(module);
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

        return (start, index, inlined);
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
