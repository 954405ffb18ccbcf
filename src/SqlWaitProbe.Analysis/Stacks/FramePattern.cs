using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>
/// Matches frames by <c>module!symbol</c> glob (<c>*</c> any run of characters; without <c>!</c> the glob is tried on the
/// symbol too) or, without <c>*</c> and <c>!</c>, by case-insensitive substring of <c>module!symbol</c>.
/// </summary>
public sealed class FramePattern
{
    private readonly string _pattern;
    private readonly bool _glob;

    /// <summary>Parses <paramref name="pattern"/>; an empty pattern is refused.</summary>
    public FramePattern(string pattern)
    {
        if (string.IsNullOrWhiteSpace(pattern))
        {
            throw new ArgumentException("the frame pattern is empty", nameof(pattern));
        }

        _pattern = pattern.Trim();
        _glob = _pattern.Contains('*') || _pattern.Contains('!');
    }

    /// <summary>True when <paramref name="frame"/> matches.</summary>
    public bool IsMatch(Frame frame)
    {
        var qualified = frame.QualifiedName;
        if (!_glob)
        {
            return qualified.Contains(_pattern, StringComparison.OrdinalIgnoreCase);
        }

        return Glob(qualified, _pattern) || (!_pattern.Contains('!') && Glob(frame.Symbol, _pattern));
    }

    private static bool Glob(ReadOnlySpan<char> text, ReadOnlySpan<char> pattern)
    {
        // Iterative wildcard match with backtracking to the last '*'.
        int t = 0, p = 0, star = -1, mark = 0;
        while (t < text.Length)
        {
            if (p < pattern.Length && pattern[p] != '*' && char.ToUpperInvariant(pattern[p]) == char.ToUpperInvariant(text[t]))
            {
                t++;
                p++;
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
}
