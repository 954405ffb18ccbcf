using System.Globalization;
using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Watch;

/// <summary>
/// One <c>--trigger</c> of <c>probe watch</c>, as the user typed it and as it is measured: <c>wait:NAME&gt;P%</c>,
/// <c>runqueue&gt;P%</c>, <c>cpu&gt;P%</c>, <c>blocked&gt;SECONDS</c> or <c>latency&gt;MS</c>. Parsing refuses anything
/// else with one line that shows the accepted forms, before a watch starts.
/// </summary>
public sealed partial record TriggerSpec
{
    /// <summary>The forms a trigger takes, for error lines and help.</summary>
    public const string Forms = "wait:NAME>P%, runqueue>P%, cpu>P%, blocked>SECONDS, latency>MS";

    /// <summary>The span the share triggers look back over.</summary>
    public static readonly TimeSpan Window = TimeSpan.FromSeconds(10);

    /// <summary>The text as given.</summary>
    public required string Text { get; init; }

    /// <summary>What it measures.</summary>
    public required TriggerKind Kind { get; init; }

    /// <summary>The wait name prefix of a <see cref="TriggerKind.Wait"/> trigger, else null.</summary>
    public string? WaitName { get; init; }

    /// <summary>The value above which it fires, in <see cref="Unit"/>.</summary>
    public required double Threshold { get; init; }

    /// <summary><c>%</c>, <c>s</c> or <c>ms</c>.</summary>
    public required string Unit { get; init; }

    /// <summary>The trigger a <c>probe watch --dump</c> from another shell stands for.</summary>
    public static TriggerSpec Manual { get; } = new() { Text = "manual", Kind = TriggerKind.Manual, Threshold = 0, Unit = "" };

    /// <summary>Parses one trigger; throws <see cref="BadInputException"/> naming it and the accepted forms.</summary>
    public static TriggerSpec Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var match = Shape().Match(text.Trim());
        if (!match.Success)
        {
            throw new BadInputException($"--trigger '{text}' is not a trigger; write one of {Forms} (e.g. wait:Lock>30%, latency>500ms)");
        }

        var what = match.Groups["what"].Value;
        var number = match.Groups["number"].Value;
        var unit = match.Groups["unit"].Value.ToLowerInvariant();
        if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || double.IsInfinity(value) || value < 0)
        {
            throw new BadInputException($"--trigger '{text}': '{number}' is not a number");
        }

        var lower = what.ToLowerInvariant();
        if (lower.StartsWith("wait:", StringComparison.Ordinal))
        {
            var name = what[5..];
            if (name.Length == 0 || !WaitNameShape().IsMatch(name))
            {
                throw new BadInputException($"--trigger '{text}': the wait name must be letters, digits, _ or one ':' between class and event (e.g. wait:Lock>30%, wait:LWLock:BufferContent>20%, wait:LCK_M_>30%)");
            }

            return Share(text, TriggerKind.Wait, value, unit, name);
        }

        return lower switch
        {
            "runqueue" => Share(text, TriggerKind.RunQueue, value, unit, null),
            "cpu" => Share(text, TriggerKind.Cpu, value, unit, null),
            "blocked" => Time(text, TriggerKind.Blocked, value, unit is "" ? "s" : unit, "s"),
            "latency" => Time(text, TriggerKind.Latency, value, unit is "" ? "ms" : unit, "ms"),
            _ => throw new BadInputException($"--trigger '{text}': '{what}' is not something a watch measures; write one of {Forms}"),
        };
    }

    /// <summary>True when the wait <paramref name="type"/> (<c>Class:Event</c>, or a SQL Server wait type) is one this trigger names: by class, event or the whole name, by prefix, case-insensitively.</summary>
    public bool MatchesWait(string? type)
    {
        if (type is null || WaitName is null)
        {
            return false;
        }

        if (type.StartsWith(WaitName, StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        var colon = type.IndexOf(':', StringComparison.Ordinal);
        return colon >= 0 && !WaitName.Contains(':', StringComparison.Ordinal) && type.AsSpan(colon + 1).StartsWith(WaitName, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>A figure of this trigger's kind with its unit, e.g. <c>42.5%</c>, <c>12.3 s</c>, <c>870 ms</c>.</summary>
    public string Describe(double value) => Figure(value, Unit);

    /// <summary>A trigger's figure in <paramref name="unit"/> as the console and the report print it (one format for both).</summary>
    public static string Figure(double value, string unit) => unit switch
    {
        "%" => value.ToString("0.#", CultureInfo.InvariantCulture) + "%",
        "" => "",
        _ => value.ToString("0.###", CultureInfo.InvariantCulture) + " " + unit,
    };

    private static TriggerSpec Share(string text, TriggerKind kind, double value, string unit, string? name)
    {
        if (unit != "%")
        {
            throw new BadInputException($"--trigger '{text}': a share is a percentage; write it with % (e.g. {(name is null ? kind.ToString().ToLowerInvariant() : "wait:" + name)}>30%)");
        }

        if (value is <= 0 or >= 100)
        {
            throw new BadInputException($"--trigger '{text}': the percentage must be above 0 and below 100");
        }

        return new TriggerSpec { Text = text.Trim(), Kind = kind, WaitName = name, Threshold = value, Unit = "%" };
    }

    private static TriggerSpec Time(string text, TriggerKind kind, double value, string unit, string canonical)
    {
        var seconds = unit switch
        {
            "ms" => value / 1000,
            "s" => value,
            "m" => value * 60,
            _ => throw new BadInputException($"--trigger '{text}': {kind.ToString().ToLowerInvariant()} takes a time (ms, s or m), not '{unit}'"),
        };
        if (seconds <= 0)
        {
            throw new BadInputException($"--trigger '{text}': the time must be above 0");
        }

        return new TriggerSpec { Text = text.Trim(), Kind = kind, Threshold = canonical == "s" ? seconds : seconds * 1000, Unit = canonical };
    }

    [GeneratedRegex(@"^(?<what>[A-Za-z][A-Za-z0-9_:]*)\s*>\s*(?<number>[0-9]+(\.[0-9]+)?)\s*(?<unit>%|ms|s|m)?$")]
    private static partial Regex Shape();

    [GeneratedRegex(@"^[A-Za-z0-9_]+(:[A-Za-z0-9_]+)?$")]
    private static partial Regex WaitNameShape();
}
