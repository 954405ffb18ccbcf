namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// A finding's evidence as the reports show it: each line ends in its source in brackets, and consecutive lines from the
/// same source show it once, on the first of them, so a finding's first screen is its figures, not a wall of file
/// names. findings.json keeps every line whole.
/// </summary>
public static class EvidenceSources
{
    /// <summary>The lines of <paramref name="evidence"/> with a source bracket repeated from the line before left out.</summary>
    public static IReadOnlyList<string> ShownOnce(IReadOnlyList<string> evidence)
    {
        var shown = new List<string>(evidence.Count);
        string? previous = null;
        foreach (var line in evidence)
        {
            var source = TrailingBracket(line);
            shown.Add(source is not null && source == previous ? line[..^source.Length].TrimEnd() : line);
            previous = source;
        }

        return shown;
    }

    /// <summary>The bracket that ends <paramref name="line"/>, <c>[…]</c> with what it nests, or null.</summary>
    public static string? TrailingBracket(string line)
    {
        if (!line.EndsWith(']'))
        {
            return null;
        }

        var depth = 0;
        for (var i = line.Length - 1; i >= 0; i--)
        {
            depth += line[i] switch { ']' => 1, '[' => -1, _ => 0 };
            if (depth == 0)
            {
                // A source follows the figures after a space; a line that is one bracket is no figure with a source.
                return i > 0 && line[i - 1] == ' ' ? line[i..] : null;
            }
        }

        return null;
    }
}
