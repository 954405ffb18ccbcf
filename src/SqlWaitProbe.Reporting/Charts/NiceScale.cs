namespace SqlWaitProbe.Reporting.Charts;

/// <summary>Axis ranges and tick steps at 1, 2 or 5 × a power of ten.</summary>
public static class NiceScale
{
    /// <summary>A range covering [min, max] with about <paramref name="ticks"/> ticks on round numbers.</summary>
    public static (double Min, double Max, double Step) For(double min, double max, int ticks = 5)
    {
        if (!double.IsFinite(min) || !double.IsFinite(max))
        {
            return (0, 1, 0.2);
        }

        if (max - min < 1e-12)
        {
            max = min + (Math.Abs(min) > 0 ? Math.Abs(min) : 1);
        }

        var step = Nice((max - min) / Math.Max(1, ticks));
        return (Math.Floor(min / step) * step, Math.Ceiling(max / step) * step, step);
    }

    /// <summary>The round number (1, 2, 5 × 10^n) nearest above <paramref name="raw"/>.</summary>
    public static double Nice(double raw)
    {
        var exponent = Math.Floor(Math.Log10(raw));
        var fraction = raw / Math.Pow(10, exponent);
        var nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
        return nice * Math.Pow(10, exponent);
    }
}
