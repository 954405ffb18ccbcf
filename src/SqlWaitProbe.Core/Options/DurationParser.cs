using System.Globalization;
using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Options;

/// <summary>
/// Parses durations as users type them: <c>500ms</c>, <c>15s</c>, <c>2m</c>, <c>1h</c> (a bare number is seconds),
/// compounds such as <c>1h30m</c> or <c>2m30s</c>, and clock form <c>hh:mm:ss</c> or <c>mm:ss</c>.
/// </summary>
public static partial class DurationParser
{
    /// <summary>
    /// Parses <paramref name="text"/>; throws <see cref="BadInputException"/> naming <paramref name="option"/> when it is not
    /// a positive duration (or zero, when <paramref name="allowZero"/>).
    /// </summary>
    public static TimeSpan Parse(string text, string option = "--duration", bool allowZero = false)
    {
        var t = text.Trim().ToLowerInvariant();
        var seconds = t.Contains(':') ? Clock(t) : Units(t);
        if (allowZero && seconds == 0)
        {
            return TimeSpan.Zero;
        }

        if (seconds is not > 0 || double.IsInfinity(seconds.Value))
        {
            throw new BadInputException($"{option} '{text}' is not a {(allowZero ? "positive duration or 0" : "positive duration")} (examples: 500ms, 15s, 2m, 1h30m, 01:30:00)");
        }

        if (seconds < 0.001)
        {
            throw new BadInputException($"{option} '{text}' is shorter than 1 ms");
        }

        if (seconds > TimeSpan.FromDays(7).TotalSeconds)
        {
            throw new BadInputException($"{option} '{text}' is longer than 7 days");
        }

        return TimeSpan.FromSeconds(seconds.Value);
    }

    // 1h30m, 2m30s, 90s, 500ms, 1.5h, 15 (seconds): each unit at most once, largest first.
    private static double? Units(string t)
    {
        if (double.TryParse(t, NumberStyles.Float, CultureInfo.InvariantCulture, out var bare))
        {
            return bare;
        }

        var match = UnitPattern().Match(t);
        if (!match.Success || match.Length == 0)
        {
            return null;
        }

        double total = 0;
        foreach (var (group, scale) in new[] { ("h", 3600.0), ("m", 60.0), ("s", 1.0), ("ms", 0.001) })
        {
            if (match.Groups[group].Success)
            {
                total += double.Parse(match.Groups[group].Value, NumberStyles.Float, CultureInfo.InvariantCulture) * scale;
            }
        }

        return total;
    }

    // hh:mm:ss or mm:ss, seconds may carry decimals; minutes and seconds below 60.
    private static double? Clock(string t)
    {
        var parts = t.Split(':');
        if (parts.Length is < 2 or > 3 || parts.Any(p => p.Length == 0 || p.Any(c => !char.IsAsciiDigit(c) && c != '.')))
        {
            return null;
        }

        var values = new double[parts.Length];
        for (var i = 0; i < parts.Length; i++)
        {
            if (!double.TryParse(parts[i], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out values[i]) || (i < parts.Length - 1 && parts[i].Contains('.')))
            {
                return null;
            }
        }

        if (values[^1] >= 60 || (parts.Length == 3 && values[1] >= 60))
        {
            return null;
        }

        return parts.Length == 3 ? values[0] * 3600 + values[1] * 60 + values[2] : values[0] * 60 + values[1];
    }

    [GeneratedRegex(@"^(?:(?<h>\d+(?:\.\d+)?)h)?(?:(?<m>\d+(?:\.\d+)?)m(?!s))?(?:(?<s>\d+(?:\.\d+)?)s)?(?:(?<ms>\d+(?:\.\d+)?)ms)?$", RegexOptions.CultureInvariant)]
    private static partial Regex UnitPattern();
}
