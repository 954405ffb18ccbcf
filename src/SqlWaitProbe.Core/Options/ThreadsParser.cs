using System.Globalization;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Options;

/// <summary>Parses <c>--threads</c>: one session count, or a comma list for a sweep (<c>1,2,4,8</c>).</summary>
public static class ThreadsParser
{
    /// <summary>Largest session count accepted.</summary>
    public const int MaxThreads = 4096;

    /// <summary>The session counts in the order given; throws <see cref="BadInputException"/> when one is not a whole number from 1 to <see cref="MaxThreads"/>.</summary>
    public static IReadOnlyList<int> Parse(string text)
    {
        var parts = text.Split(',', StringSplitOptions.TrimEntries);
        var counts = new List<int>();
        foreach (var part in parts)
        {
            if (!int.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var n) || n < 1 || n > MaxThreads)
            {
                throw new BadInputException($"--threads '{text}': each value must be a whole number from 1 to {MaxThreads}");
            }

            if (counts.Contains(n))
            {
                throw new BadInputException($"--threads '{text}': {n} appears twice");
            }

            counts.Add(n);
        }

        return counts;
    }
}
