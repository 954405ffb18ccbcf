namespace SqlWaitProbe.Core.Text;

/// <summary>The known name nearest to a misspelt one, for "did you mean" in one-line errors.</summary>
public static class NearestName
{
    /// <summary>
    /// The candidate nearest <paramref name="name"/> (case-insensitive edit distance, at most a third of the name's
    /// length and at least 2), or null when none is that near.
    /// </summary>
    public static string? Find(string name, IEnumerable<string> candidates)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(candidates);
        var limit = Math.Max(2, name.Length / 3);
        string? best = null;
        var bestDistance = int.MaxValue;
        foreach (var candidate in candidates)
        {
            var d = Distance(name.ToLowerInvariant(), candidate.ToLowerInvariant(), limit);
            if (d < bestDistance)
            {
                (best, bestDistance) = (candidate, d);
            }
        }

        return bestDistance <= limit ? best : null;
    }

    /// <summary>"; did you mean 'x'?" when a candidate is near, else an empty string.</summary>
    public static string Hint(string name, IEnumerable<string> candidates) =>
        Find(name, candidates) is { } near ? $"; did you mean '{near}'?" : "";

    // Levenshtein distance with adjacent transpositions, given up past the limit (long names against long lists).
    private static int Distance(string a, string b, int limit)
    {
        if (Math.Abs(a.Length - b.Length) > limit)
        {
            return int.MaxValue;
        }

        var previous2 = new int[b.Length + 1];
        var previous = new int[b.Length + 1];
        var current = new int[b.Length + 1];
        for (var j = 0; j <= b.Length; j++)
        {
            previous[j] = j;
        }

        for (var i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (var j = 1; j <= b.Length; j++)
            {
                var cost = a[i - 1] == b[j - 1] ? 0 : 1;
                current[j] = Math.Min(Math.Min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                {
                    current[j] = Math.Min(current[j], previous2[j - 2] + 1);
                }
            }

            (previous2, previous, current) = (previous, current, previous2);
        }

        return previous[b.Length];
    }
}
