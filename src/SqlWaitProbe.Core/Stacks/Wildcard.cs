namespace SqlWaitProbe.Core.Stacks;

/// <summary>Case-insensitive <c>*</c>/<c>?</c> wildcard matching, as WPA and PerfView patterns use.</summary>
public static class Wildcard
{
    /// <summary>True when <paramref name="text"/> matches <paramref name="pattern"/> entirely.</summary>
    public static bool IsMatch(string pattern, string text)
    {
        int p = 0, t = 0, star = -1, mark = 0;
        while (t < text.Length)
        {
            if (p < pattern.Length && (pattern[p] == '?' || char.ToUpperInvariant(pattern[p]) == char.ToUpperInvariant(text[t])))
            {
                p++;
                t++;
            }
            else if (p < pattern.Length && pattern[p] == '*')
            {
                star = p++;
                mark = t;
            }
            else if (star >= 0)
            {
                p = star + 1;
                t = ++mark;
            }
            else
            {
                return false;
            }
        }

        while (p < pattern.Length && pattern[p] == '*')
        {
            p++;
        }

        return p == pattern.Length;
    }

    /// <summary>Drops a Windows image extension so <c>ntoskrnl.exe</c> patterns match the bundle's <c>ntoskrnl</c>.</summary>
    public static string StripImageExtension(string module)
    {
        foreach (var ext in (ReadOnlySpan<string>)[".dll", ".exe", ".sys"])
        {
            if (module.EndsWith(ext, StringComparison.OrdinalIgnoreCase))
            {
                return module[..^ext.Length];
            }
        }

        return module;
    }
}
