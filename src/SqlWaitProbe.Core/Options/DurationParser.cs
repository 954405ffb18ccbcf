using System.Globalization;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Options;

/// <summary>Parses durations as users type them: <c>500ms</c>, <c>15s</c>, <c>2m</c>, <c>1h</c> (a bare number is seconds).</summary>
public static class DurationParser
{
    /// <summary>Parses <paramref name="text"/>; throws <see cref="BadInputException"/> naming <paramref name="option"/> when it is not a positive duration.</summary>
    public static TimeSpan Parse(string text, string option = "--duration")
    {
        var t = text.Trim().ToLowerInvariant();
        var (number, unit) = t.EndsWith("ms", StringComparison.Ordinal) ? (t[..^2], 0.001)
            : t.EndsWith('s') ? (t[..^1], 1.0)
            : t.EndsWith('m') ? (t[..^1], 60.0)
            : t.EndsWith('h') ? (t[..^1], 3600.0)
            : (t, 1.0);
        if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || value <= 0 || double.IsInfinity(value))
        {
            throw new BadInputException($"{option} '{text}' is not a positive duration (examples: 500ms, 15s, 2m, 1h)");
        }

        var seconds = value * unit;
        if (seconds > TimeSpan.FromDays(7).TotalSeconds)
        {
            throw new BadInputException($"{option} '{text}' is longer than 7 days");
        }

        return TimeSpan.FromSeconds(seconds);
    }
}
