using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.FlameGraphs;

/// <summary>Frame colours: warm reds and yellows for user code, orange for the kernel, green for JIT code, aqua for inlined frames; red/blue for differences.</summary>
internal static class FlameGraphPalette
{
    /// <summary>A stable colour for a frame: the name picks the shade, so the same function looks the same everywhere.</summary>
    public static string For(Frame frame, bool isProcess)
    {
        if (isProcess)
        {
            return "rgb(200,200,200)";
        }

        var h = Hash(frame.Symbol);
        var a = (h & 0xff) / 255.0;
        var b = ((h >> 8) & 0xff) / 255.0;
        return frame.Kind switch
        {
            FrameKind.Kernel => Rgb(240 + (15 * a), 120 + (40 * b), 0 + (25 * a)),
            FrameKind.Jit => Rgb(50 + (60 * a), 180 + (50 * b), 50 + (60 * a)),
            FrameKind.Inlined => Rgb(70 + (40 * a), 190 + (40 * b), 190 + (40 * b)),
            // Reds or yellows, skipping the orange band the kernel uses.
            _ => Rgb(205 + (50 * a), b < 0.5 ? 40 + (140 * b) : 175 + (110 * (b - 0.5)), 40 + (30 * a)),
        };
    }

    /// <summary>Red when <paramref name="change"/> (−1..1) is positive, blue when negative, white at zero.</summary>
    public static string ForChange(double change)
    {
        var c = Math.Clamp(Math.Abs(change), 0, 1);
        var fade = 255 - (c * 200);
        return change >= 0 ? Rgb(255, fade, fade) : Rgb(fade, fade, 255);
    }

    private static string Rgb(double r, double g, double b) => $"rgb({(int)r},{(int)g},{(int)b})";

    private static uint Hash(string s)
    {
        // FNV-1a: stable across runs and machines, unlike string.GetHashCode.
        var h = 2166136261u;
        foreach (var c in s)
        {
            h = (h ^ c) * 16777619u;
        }

        return h ^ (h >> 16);
    }
}
