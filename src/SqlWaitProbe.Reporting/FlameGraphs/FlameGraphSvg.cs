using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.FlameGraphs;

/// <summary>Lays out a <see cref="FlameNode"/> tree and writes it as a self-contained SVG document.</summary>
internal sealed class FlameGraphSvg(FlameGraphOptions options)
{
    private const int Pad = 10;
    private const int Header = 40;
    private const int Footer = 30;

    /// <summary>Per-execution divisors of a differential graph, or null for a plain one.</summary>
    public (double Before, double After)? Executions { get; init; }

    /// <summary>How the per-execution values of a differential graph are named in tooltips.</summary>
    public string DiffUnit { get; init; } = "samples per execution";

    /// <summary>The SVG text for <paramref name="root"/>.</summary>
    public string Write(FlameNode root, string title)
    {
        var innerWidth = options.Width - (2.0 * Pad);
        var total = Math.Max(1, root.Value);
        var depth = MaxDepth(root, total, innerWidth, 0);
        var height = Header + ((depth + 1) * options.FrameHeight) + Footer;
        var fontWidth = options.FontSize * 0.59;
        var sb = new StringBuilder(1 << 16);
        sb.Append("<?xml version=\"1.0\" standalone=\"no\"?>\n")
          .Append(CultureInfo.InvariantCulture, $"<svg version=\"1.1\" width=\"{options.Width}\" height=\"{height}\" viewBox=\"0 0 {options.Width} {height}\" xmlns=\"http://www.w3.org/2000/svg\" onload=\"init()\">\n")
          .Append("<style>text{font-family:Verdana,sans-serif;font-size:").Append(options.FontSize.ToString(CultureInfo.InvariantCulture))
          .Append("px;fill:#000}#frames g{cursor:pointer}#frames text{pointer-events:none}#frames rect{stroke:#fff;stroke-width:0.3}#reset,#search{cursor:pointer;fill:#3060a0}</style>\n")
          .Append("<script type=\"text/ecmascript\"><![CDATA[")
          .Append(FlameGraphScript.Text.Replace("FONT_W", Num(fontWidth)).Replace("INNER_W", Num(innerWidth)).Replace("PAD", Num(Pad)))
          .Append("]]></script>\n")
          .Append(CultureInfo.InvariantCulture, $"<rect x=\"0\" y=\"0\" width=\"{options.Width}\" height=\"{height}\" fill=\"#f8f8f0\"/>\n")
          .Append(CultureInfo.InvariantCulture, $"<text x=\"{options.Width / 2}\" y=\"24\" text-anchor=\"middle\" style=\"font-size:17px\">").Append(Escape(title)).Append("</text>\n")
          .Append("<text id=\"reset\" x=\"10\" y=\"24\" style=\"opacity:0\">Reset Zoom</text>\n")
          .Append(CultureInfo.InvariantCulture, $"<text id=\"search\" x=\"{options.Width - Pad}\" y=\"24\" text-anchor=\"end\">Search</text>\n")
          .Append(CultureInfo.InvariantCulture, $"<text id=\"details\" x=\"10\" y=\"{height - 10}\"> </text>\n")
          .Append(CultureInfo.InvariantCulture, $"<text id=\"matched\" x=\"{options.Width - Pad}\" y=\"{height - 10}\" text-anchor=\"end\"> </text>\n")
          .Append("<g id=\"frames\">\n");
        WriteNode(sb, root, 0, Pad, innerWidth, total, innerWidth, height - Footer, fontWidth);
        sb.Append("</g>\n</svg>\n");
        return sb.ToString();
    }

    private int MaxDepth(FlameNode node, long total, double innerWidth, int depth)
    {
        var max = depth;
        foreach (var child in node.Children)
        {
            if (child.Value * innerWidth / total >= options.MinWidthPixels)
            {
                max = Math.Max(max, MaxDepth(child, total, innerWidth, depth + 1));
            }
        }

        return max;
    }

    private void WriteNode(StringBuilder sb, FlameNode node, int depth, double x, double width, long total, double innerWidth, double bottom, double fontWidth)
    {
        var isRoot = depth == 0;
        var isProcess = depth == 1;
        var name = isRoot ? "all" : node.Frame.Symbol;
        var y = bottom - ((depth + 1) * options.FrameHeight);
        string fill;
        string stats;
        if (Executions is { } exec)
        {
            var before = node.Before / Math.Max(exec.Before, 1e-9);
            var after = node.Value / Math.Max(exec.After, 1e-9);
            var change = before == 0 ? 1 : (after - before) / before;
            fill = Math.Abs(change) < 0.02 ? "rgb(255,255,255)" : FlameGraphPalette.ForChange(change);
            var scale = options.UnitsPerMillisecond is { } perMs && DiffUnit == options.PerExecutionUnit ? 1 / perMs : 1;
            stats = $"before {Num(before * scale)}, after {Num(after * scale)} {DiffUnit} ({(before == 0 ? "new" : (change >= 0 ? "+" : string.Empty) + Num(change * 100) + "%")})";
        }
        else
        {
            fill = isRoot ? "rgb(220,220,220)" : FlameGraphPalette.For(node.Frame, isProcess);
            stats = $"{options.FormatWeight(node.Value)} ({Num(100.0 * node.Value / total)}%)";
        }

        var module = isRoot || isProcess ? (isProcess ? "process" : string.Empty) : KindNote(node.Frame);
        sb.Append("<g><title>").Append(Escape(name)).Append('\n').Append(Escape(module)).Append('\n').Append(Escape(stats)).Append("</title>")
          .Append("<rect x=\"").Append(Num(x)).Append("\" y=\"").Append(Num(y)).Append("\" width=\"").Append(Num(width))
          .Append("\" height=\"").Append(options.FrameHeight - 1).Append("\" fill=\"").Append(fill).Append("\" rx=\"2\"/>")
          .Append("<text x=\"").Append(Num(x + 3)).Append("\" y=\"").Append(Num(y + options.FrameHeight - 4.5)).Append("\">")
          .Append(Escape(Label(name, width, fontWidth))).Append("</text></g>\n");

        var childX = x;
        foreach (var child in node.Children.OrderBy(c => c.Frame.Symbol, StringComparer.Ordinal).ThenBy(c => c.Frame.Module, StringComparer.Ordinal))
        {
            var childWidth = child.Value * innerWidth / total;
            if (childWidth >= options.MinWidthPixels)
            {
                WriteNode(sb, child, depth + 1, childX, childWidth, total, innerWidth, bottom, fontWidth);
            }

            childX += childWidth;
        }
    }

    private static string KindNote(Frame frame)
    {
        var kind = frame.Kind switch
        {
            FrameKind.Kernel => " [kernel]",
            FrameKind.Jit => " [jit]",
            FrameKind.Inlined => " [inlined]",
            _ => string.Empty,
        };
        return frame.Module + kind;
    }

    private static string Label(string name, double width, double fontWidth)
    {
        var fits = (int)Math.Floor((width - 6) / fontWidth);
        if (fits < 3)
        {
            return string.Empty;
        }

        return name.Length <= fits ? name : name[..(fits - 2)] + "..";
    }

    private static string Num(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);

    private static string Escape(string text)
    {
        if (text.AsSpan().IndexOfAny("&<>\"'") < 0)
        {
            return text;
        }

        return text.Replace("&", "&amp;").Replace("<", "&lt;").Replace(">", "&gt;").Replace("\"", "&quot;").Replace("'", "&apos;");
    }
}
