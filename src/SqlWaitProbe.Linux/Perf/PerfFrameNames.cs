using System.Text;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// The naming rules of perf frames, kept compatible with inferno-collapse-perf so folded output matches it:
/// offsets stripped, unresolved functions named after their module, argument lists removed, Java names tidied,
/// partially demangled Rust names completed.
/// </summary>
internal static class PerfFrameNames
{
    private const int RustHashLength = 17;

    /// <summary>True for kernel code: <c>[kernel.kallsyms]</c> and other bracketed dsos, <c>.ko</c> modules, vmlinux files.</summary>
    public static bool IsKernel(ReadOnlySpan<char> module) =>
        (module.StartsWith('[') || module.EndsWith(".ko", StringComparison.Ordinal) || IsVmlinux(module))
        && !module.SequenceEqual("[unknown]");

    /// <summary>The module name of JIT code that has no file of its own (.NET's double-mapped code).</summary>
    public const string JitModule = "[jit]";

    /// <summary>
    /// True for JIT code: <c>/tmp/perf-PID.map</c> or jitdump <c>jitted-*.so</c> files, and .NET's executable memory,
    /// which the runtime maps twice from an anonymous file (W^X): perf names it <c>/memfd:doublemapper (deleted)</c>.
    /// </summary>
    public static bool IsJit(ReadOnlySpan<char> module) =>
        (module.StartsWith("/tmp/perf-", StringComparison.Ordinal) && module.EndsWith(".map", StringComparison.Ordinal))
        || (module.Contains("/jitted-", StringComparison.Ordinal) && module.EndsWith(".so", StringComparison.Ordinal))
        || IsDoubleMapped(module);

    /// <summary>True for .NET's double-mapped JIT code (<c>/memfd:doublemapper</c>, usually with <c> (deleted)</c>).</summary>
    public static bool IsDoubleMapped(ReadOnlySpan<char> module) =>
        module.StartsWith("/memfd:doublemapper", StringComparison.Ordinal);

    /// <summary>
    /// Where the module of a frame line's tail (<c>func+0x1f (MODULE)</c>) opens: the last parenthesis group, matched
    /// from the end, so a module that holds parentheses itself (<c>(/memfd:doublemapper (deleted))</c>, a library
    /// replaced on disk: <c>(/usr/lib/libc.so.6 (deleted))</c>) stays whole. -1 when the tail has no module.
    /// </summary>
    public static int ModuleStart(ReadOnlySpan<char> tail)
    {
        if (tail.IsEmpty || tail[^1] != ')')
        {
            return -1;
        }

        var depth = 0;
        for (var i = tail.Length - 1; i >= 0; i--)
        {
            if (tail[i] == ')')
            {
                depth++;
            }
            else if (tail[i] == '(' && --depth == 0)
            {
                return i == 0 || tail[i - 1] == ' ' ? i : -1;
            }
        }

        return -1;
    }

    /// <summary>
    /// The module name frames are filed under: the file name of the dso (<c>/usr/lib/libc.so.6</c> → <c>libc.so.6</c>),
    /// without perf's <c> (deleted)</c> for a file replaced since it was mapped, and <see cref="JitModule"/> for .NET's
    /// double-mapped code, whose anonymous file would otherwise read <c>memfd:doublemapper (deleted)</c>.
    /// </summary>
    public static string ModuleName(ReadOnlySpan<char> module)
    {
        if (IsDoubleMapped(module))
        {
            return JitModule;
        }

        if (module.EndsWith(" (deleted)", StringComparison.Ordinal))
        {
            module = module[..^" (deleted)".Length];
        }

        return BaseName(module).ToString();
    }

    /// <summary>The file name of a dso path (<c>/usr/lib/libc.so.6</c> → <c>libc.so.6</c>).</summary>
    public static ReadOnlySpan<char> BaseName(ReadOnlySpan<char> module)
    {
        var slash = module.LastIndexOf('/');
        return slash < 0 ? module : module[(slash + 1)..];
    }

    /// <summary>Removes a trailing <c>+0x1f</c> offset.</summary>
    public static ReadOnlySpan<char> StripOffset(ReadOnlySpan<char> func)
    {
        var at = func.LastIndexOf("+0x", StringComparison.Ordinal);
        if (at >= 0)
        {
            var tail = func[(at + 3)..];
            if (!tail.ContainsAnyExcept(HexDigits))
            {
                return func[..at];
            }
        }

        return func;
    }

    /// <summary>The name of an unresolved function: <c>[module]</c> (or <c>[module &lt;pc&gt;]</c> with addresses).</summary>
    public static string WithModuleFallback(ReadOnlySpan<char> module, ReadOnlySpan<char> func, ReadOnlySpan<char> pc, bool includeAddresses)
    {
        if (!func.SequenceEqual("[unknown]"))
        {
            return func.ToString();
        }

        ReadOnlySpan<char> name;
        if (module.SequenceEqual("[unknown]"))
        {
            if (!includeAddresses)
            {
                return "[unknown]";
            }

            name = "unknown";
        }
        else if (IsDoubleMapped(module))
        {
            name = "jit";
        }
        else
        {
            name = BaseName(module);
        }

        return includeAddresses ? $"[{name} <{pc}>]" : $"[{name}]";
    }

    /// <summary>Replaces <c>;</c> and removes a top-level argument list, keeping Go receivers and anonymous namespaces.</summary>
    public static string TidyGeneric(string func)
    {
        if (func.Contains(';'))
        {
            func = func.Replace(';', ':');
        }

        var depth = 0;
        var afterDot = -1;
        for (var i = 0; i < func.Length; i++)
        {
            switch (func[i])
            {
                case '<' or '{' or '[':
                    depth++;
                    break;
                case '>' or '}' or ']' or ')':
                    depth--;
                    break;
                case '(':
                    if (depth == 0)
                    {
                        var goReceiver = afterDot == i;
                        var anonymous = func.AsSpan(i).StartsWith("(anonymous namespace)", StringComparison.Ordinal);
                        if (!goReceiver && !anonymous)
                        {
                            return func[..i];
                        }
                    }

                    depth++;
                    break;
                case '.':
                    afterDot = i + 1;
                    break;
            }
        }

        return func;
    }

    /// <summary>Drops the leading <c>L</c> of JVM type descriptors (<c>Ljava/lang/Thread:::run</c> → <c>java/lang/Thread:::run</c>).</summary>
    public static string TidyJava(string func) =>
        func.Length > 0 && func[0] == 'L' && func.Contains('/') ? func[1..] : func;

    /// <summary>Completes Rust legacy-mangled names that perf left half-demangled (<c>$LT$</c>, <c>..</c>, trailing hash).</summary>
    public static string FixRustSymbol(string symbol)
    {
        if (symbol.Length < RustHashLength || !IsRustHash(symbol.AsSpan(symbol.Length - RustHashLength)))
        {
            return symbol;
        }

        var rest = symbol.AsSpan(0, symbol.Length - RustHashLength);
        if (rest.EndsWith("::", StringComparison.Ordinal))
        {
            rest = rest[..^2];
        }

        if (rest.StartsWith("_$", StringComparison.Ordinal))
        {
            rest = rest[1..];
        }

        var sb = new StringBuilder(rest.Length);
        while (!rest.IsEmpty)
        {
            if (rest[0] == '.')
            {
                if (rest.Length > 1 && rest[1] == '.')
                {
                    sb.Append("::");
                    rest = rest[2..];
                }
                else
                {
                    sb.Append('.');
                    rest = rest[1..];
                }
            }
            else if (rest[0] == '$')
            {
                var matched = false;
                foreach (var (code, text) in RustEscapes)
                {
                    if (rest.StartsWith(code, StringComparison.Ordinal))
                    {
                        sb.Append(text);
                        rest = rest[code.Length..];
                        matched = true;
                        break;
                    }
                }

                if (!matched)
                {
                    sb.Append(rest);
                    break;
                }
            }
            else
            {
                var next = rest.IndexOfAny('$', '.');
                if (next < 0)
                {
                    next = rest.Length;
                }

                sb.Append(rest[..next]);
                rest = rest[next..];
            }
        }

        return sb.ToString();
    }

    private static bool IsVmlinux(ReadOnlySpan<char> module)
    {
        var at = module.LastIndexOf("vmlinux", StringComparison.Ordinal);
        if (at < 0)
        {
            return false;
        }

        foreach (var c in module[at..])
        {
            if (!(char.IsAsciiLetterOrDigit(c) || c is '-' or '.' or '_'))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsRustHash(ReadOnlySpan<char> s) => s[0] == 'h' && !s[1..].ContainsAnyExcept(HexDigits);

    private static readonly System.Buffers.SearchValues<char> HexDigits = System.Buffers.SearchValues.Create("0123456789abcdefABCDEF");

    private static readonly (string Code, string Text)[] RustEscapes =
    [
        ("$SP$", "@"), ("$BP$", "*"), ("$RF$", "&"), ("$LT$", "<"), ("$GT$", ">"), ("$LP$", "("), ("$RP$", ")"),
        ("$C$", ","), ("$u7e$", "~"), ("$u20$", " "), ("$u27$", "'"), ("$u3d$", "="), ("$u5b$", "["), ("$u5d$", "]"),
        ("$u7b$", "{"), ("$u7d$", "}"), ("$u3b$", ";"), ("$u2b$", "+"), ("$u21$", "!"), ("$u22$", "\""),
    ];
}
