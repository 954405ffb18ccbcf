using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>
/// Matches frames by <c>module!symbol</c> glob (<c>*</c> any run of characters, <c>?</c> any one character; without <c>!</c> the glob is tried on the
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

        return Wildcard.IsMatch(_pattern, qualified) || (!_pattern.Contains('!') && Wildcard.IsMatch(_pattern, frame.Symbol));
    }
}
