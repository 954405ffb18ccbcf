using System.Globalization;
using System.Text;

namespace SqlWaitProbe.Reporting.Charts;

/// <summary>Small self-contained SVG charts (line and bar) with nice ticks, titles, units and a legend.</summary>
public static class SvgChart
{
    /// <summary>Chart width in pixels.</summary>
    public const int Width = 960;

    /// <summary>Chart height in pixels.</summary>
    public const int Height = 540;

    private const double Left = 80, Right = 220, Top = 50, Bottom = 60;
    private static readonly string[] Palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

    /// <summary>A line chart of several series against a shared x axis.</summary>
    public static string Line(string title, string xLabel, string yLabel, IReadOnlyList<ChartSeries> series, bool yFromZero = true)
    {
        var points = series.SelectMany(s => s.Points).ToArray();
        var (x0, x1, xs) = NiceScale.For(points.Length == 0 ? 0 : points.Min(p => p.X), points.Length == 0 ? 1 : points.Max(p => p.X));
        var (y0, y1, ys) = NiceScale.For(yFromZero ? Math.Min(0, points.DefaultIfEmpty().Min(p => p.Y)) : points.DefaultIfEmpty().Min(p => p.Y), points.DefaultIfEmpty().Max(p => p.Y));
        var sb = Begin(title);
        Axes(sb, x0, x1, xs, y0, y1, ys, xLabel, yLabel);
        for (var i = 0; i < series.Count; i++)
        {
            var path = string.Join(' ', series[i].Points.Select((p, j) => (j == 0 ? "M" : "L") + N(X(p.X, x0, x1)) + "," + N(Y(p.Y, y0, y1))));
            if (path.Length > 0)
            {
                sb.Append($"<path d=\"{path}\" fill=\"none\" stroke=\"{Palette[i % Palette.Length]}\" stroke-width=\"2\"/>\n");
            }
        }

        Legend(sb, series.Select(s => s.Name).ToArray());
        return End(sb);
    }

    /// <summary>A bar chart: one group per category, bars side by side (grouped) or piled up (stacked).</summary>
    public static string Bars(string title, string yLabel, IReadOnlyList<string> categories, IReadOnlyList<BarSeries> series, bool stacked)
    {
        var max = 0.0;
        var min = 0.0;
        for (var c = 0; c < categories.Count; c++)
        {
            if (stacked)
            {
                max = Math.Max(max, series.Sum(s => Math.Max(0, s.Values[c])));
                min = Math.Min(min, series.Sum(s => Math.Min(0, s.Values[c])));
            }
            else
            {
                max = Math.Max(max, series.Max(s => s.Values[c]));
                min = Math.Min(min, series.Min(s => s.Values[c]));
            }
        }

        var (y0, y1, ys) = NiceScale.For(min, max);
        var sb = Begin(title);
        Axes(sb, double.NaN, double.NaN, 0, y0, y1, ys, "", yLabel);
        var plotWidth = Width - Left - Right;
        var groupWidth = plotWidth / Math.Max(1, categories.Count);
        for (var c = 0; c < categories.Count; c++)
        {
            var gx = Left + c * groupWidth;
            sb.Append($"<text x=\"{N(gx + groupWidth / 2)}\" y=\"{N(Height - Bottom + 18)}\" text-anchor=\"middle\">{Esc(categories[c])}</text>\n");
            double up = 0, down = 0;
            for (var i = 0; i < series.Count; i++)
            {
                var v = series[i].Values[c];
                double from, to, bx, bw;
                if (stacked)
                {
                    bw = groupWidth * 0.6;
                    bx = gx + groupWidth * 0.2;
                    from = v >= 0 ? up : down;
                    to = from + v;
                    if (v >= 0) up = to; else down = to;
                }
                else
                {
                    bw = groupWidth * 0.8 / series.Count;
                    bx = gx + groupWidth * 0.1 + i * bw;
                    from = 0;
                    to = v;
                }

                var ya = Y(Math.Max(from, to), y0, y1);
                var yb = Y(Math.Min(from, to), y0, y1);
                sb.Append($"<rect x=\"{N(bx)}\" y=\"{N(ya)}\" width=\"{N(bw)}\" height=\"{N(Math.Max(0, yb - ya))}\" fill=\"{Palette[i % Palette.Length]}\"><title>{Esc(series[i].Name)}: {N(v)}</title></rect>\n");
            }
        }

        Legend(sb, series.Select(s => s.Name).ToArray());
        return End(sb);
    }

    private static StringBuilder Begin(string title)
    {
        var sb = new StringBuilder();
        sb.Append($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{Height}\" viewBox=\"0 0 {Width} {Height}\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n");
        sb.Append($"<rect width=\"{Width}\" height=\"{Height}\" fill=\"#ffffff\"/>\n");
        sb.Append($"<text x=\"{Width / 2}\" y=\"28\" text-anchor=\"middle\" font-size=\"17\" font-weight=\"bold\">{Esc(title)}</text>\n");
        return sb;
    }

    private static string End(StringBuilder sb) => sb.Append("</svg>\n").ToString();

    private static void Axes(StringBuilder sb, double x0, double x1, double xs, double y0, double y1, double ys, string xLabel, string yLabel)
    {
        var plotRight = Width - Right;
        var plotBottom = Height - Bottom;
        for (var y = y0; y <= y1 + ys / 2; y += ys)
        {
            var py = Y(y, y0, y1);
            sb.Append($"<line x1=\"{N(Left)}\" y1=\"{N(py)}\" x2=\"{N(plotRight)}\" y2=\"{N(py)}\" stroke=\"#e0e0e0\"/>\n");
            sb.Append($"<text x=\"{N(Left - 6)}\" y=\"{N(py + 4)}\" text-anchor=\"end\">{Tick(y, ys)}</text>\n");
        }

        if (!double.IsNaN(x0))
        {
            for (var x = x0; x <= x1 + xs / 2; x += xs)
            {
                var px = X(x, x0, x1);
                sb.Append($"<line x1=\"{N(px)}\" y1=\"{N(plotBottom)}\" x2=\"{N(px)}\" y2=\"{N(plotBottom + 5)}\" stroke=\"#333\"/>\n");
                sb.Append($"<text x=\"{N(px)}\" y=\"{N(plotBottom + 18)}\" text-anchor=\"middle\">{Tick(x, xs)}</text>\n");
            }
        }

        sb.Append($"<line x1=\"{N(Left)}\" y1=\"{N(plotBottom)}\" x2=\"{N(plotRight)}\" y2=\"{N(plotBottom)}\" stroke=\"#333\"/>\n");
        sb.Append($"<line x1=\"{N(Left)}\" y1=\"{N(Top)}\" x2=\"{N(Left)}\" y2=\"{N(plotBottom)}\" stroke=\"#333\"/>\n");
        sb.Append($"<text x=\"{N((Left + plotRight) / 2)}\" y=\"{Height - 14}\" text-anchor=\"middle\">{Esc(xLabel)}</text>\n");
        sb.Append($"<text transform=\"translate(18,{N((Top + plotBottom) / 2)}) rotate(-90)\" text-anchor=\"middle\">{Esc(yLabel)}</text>\n");
    }

    private static void Legend(StringBuilder sb, IReadOnlyList<string> names)
    {
        var x = Width - Right + 16;
        for (var i = 0; i < names.Count && i < 16; i++)
        {
            var y = Top + 10 + i * 20;
            sb.Append($"<rect x=\"{N(x)}\" y=\"{N(y - 9)}\" width=\"12\" height=\"12\" fill=\"{Palette[i % Palette.Length]}\"/>\n");
            sb.Append($"<text x=\"{N(x + 18)}\" y=\"{N(y + 2)}\">{Esc(names[i].Length > 26 ? names[i][..25] + "…" : names[i])}</text>\n");
        }
    }

    private static double X(double v, double x0, double x1) => Left + (v - x0) / (x1 - x0) * (Width - Left - Right);

    private static double Y(double v, double y0, double y1) => Height - Bottom - (v - y0) / (y1 - y0) * (Height - Top - Bottom);

    private static string Tick(double v, double step)
    {
        // Large values get an SI suffix, chosen from the step, so labels stay narrower than the margin.
        var (divisor, suffix) = step >= 1e8 ? (1e9, "G") : step >= 1e5 ? (1e6, "M") : step >= 1e3 ? (1e3, "k") : (1, "");
        v /= divisor;
        step /= divisor;
        var decimals = Math.Max(0, (int)-Math.Floor(Math.Log10(step)));
        var text = Math.Round(v, decimals).ToString("F" + decimals, CultureInfo.InvariantCulture);
        return v == 0 ? "0" : text + suffix;
    }

    private static string N(double v) => v.ToString("0.##", CultureInfo.InvariantCulture);

    /// <summary>Escapes text for SVG/HTML.</summary>
    public static string Esc(string s) => s.Replace("&", "&amp;").Replace("<", "&lt;").Replace(">", "&gt;").Replace("\"", "&quot;");
}
