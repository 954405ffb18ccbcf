namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Wraps text between words: an identifier, a path or a wait type longer than the width stays whole on a line of its own,
/// where breaking it would turn it into two names nobody can search for.
/// </summary>
internal static class WordWrap
{
    /// <summary>The lines of <paramref name="text"/> at most <paramref name="width"/> characters long, but for single words longer than that.</summary>
    public static IReadOnlyList<string> Lines(string text, int width)
    {
        var lines = new List<string>();
        var line = new System.Text.StringBuilder();
        foreach (var word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > width)
            {
                lines.Add(line.ToString());
                line.Clear();
            }

            line.Append(line.Length > 0 ? " " : "").Append(word);
        }

        if (line.Length > 0)
        {
            lines.Add(line.ToString());
        }

        return lines;
    }
}
