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
    private const int SearchWidth = 220;

    /// <summary>Per-execution divisors of a differential graph, or null for a plain one.</summary>
    public (double Before, double After)? Executions { get; init; }

    /// <summary>How the per-execution values of a differential graph are named in tooltips.</summary>
    public string DiffUnit { get; init; } = "samples per execution";

    /// <summary>
    /// The deepest frame row drawn, counted from the process row. A deeper stack (runaway recursion, or a crafted
    /// file) is cut there: each box that would go on is drawn once more, grey, as the start of its undrawn part, and
    /// a note under the title says how deep the deepest stack is. Real stacks stay far below this (perf keeps 127
    /// frames unless <c>kernel.perf_event_max_stack</c> is raised), and an image 16,000 px tall is already more than a
    /// reader scrolls through; speedscope and pprof output keep every frame.
    /// </summary>
    public const int MaxFrameRows = 1024;

    // Root ("all") is row 0 and the process row 1, so frame row MaxFrameRows sits at depth MaxFrameRows + 1.
    private const int DeepestDrawnDepth = MaxFrameRows + 1;

    /// <summary>The SVG text for <paramref name="root"/>.</summary>
    public string Write(FlameNode root, string title)
    {
        var innerWidth = options.Width - (2.0 * Pad);
        var total = Math.Max(1, root.Value);
        var depth = MaxDepth(root, total, innerWidth);
        var cut = depth > DeepestDrawnDepth;
        var header = cut ? Header + 16 : Header;
        var height = header + ((Math.Min(depth, DeepestDrawnDepth + 1) + 1) * options.FrameHeight) + Footer;
        var fontWidth = options.FontSize * 0.59;
        var sb = new StringBuilder(1 << 16);
        sb.Append("<?xml version=\"1.0\" standalone=\"no\"?>\n")
          .Append(CultureInfo.InvariantCulture, $"<svg version=\"1.1\" width=\"{options.Width}\" height=\"{height}\" viewBox=\"0 0 {options.Width} {height}\" xmlns=\"http://www.w3.org/2000/svg\" onload=\"init()\">\n")
          .Append("<style>text{font-family:Verdana,sans-serif;font-size:").Append(options.FontSize.ToString(CultureInfo.InvariantCulture))
          .Append("px;fill:#000}#frames g{cursor:pointer}#frames text{pointer-events:none}#frames rect{stroke:#fff;stroke-width:0.3}#reset{cursor:pointer;fill:#3060a0}</style>\n")
          .Append("<script type=\"text/ecmascript\"><![CDATA[")
          .Append(FlameGraphScript.Text.Replace("FONT_W", Num(fontWidth)).Replace("INNER_W", Num(innerWidth)).Replace("PAD", Num(Pad)))
          .Append("]]></script>\n")
          .Append(CultureInfo.InvariantCulture, $"<rect x=\"0\" y=\"0\" width=\"{options.Width}\" height=\"{height}\" fill=\"#f8f8f0\"/>\n")
          .Append(CultureInfo.InvariantCulture, $"<text x=\"{options.Width / 2}\" y=\"24\" text-anchor=\"middle\" style=\"font-size:17px\">").Append(Escape(title)).Append("</text>\n");
        if (cut)
        {
            sb.Append(CultureInfo.InvariantCulture, $"<text id=\"cut\" x=\"{options.Width / 2}\" y=\"44\" text-anchor=\"middle\">")
              .Append(Escape(CutNote(depth - 1))).Append("</text>\n");
        }

        sb.Append("<text id=\"reset\" x=\"10\" y=\"24\" style=\"opacity:0\">Reset Zoom</text>\n")
          // A text box of the page's own (XHTML in a foreignObject): browsers render it in a standalone SVG and in the
          // report's frames alike, and typing in it needs no dialog.
          .Append(CultureInfo.InvariantCulture, $"<foreignObject x=\"{options.Width - Pad - SearchWidth}\" y=\"8\" width=\"{SearchWidth}\" height=\"24\">")
          .Append("<input xmlns=\"http://www.w3.org/1999/xhtml\" id=\"term\" type=\"search\" placeholder=\"Search frames (text or regex)\" aria-label=\"Search frames\" ")
          .Append("style=\"box-sizing:border-box;width:100%;height:22px;font:12px Verdana,sans-serif\"/></foreignObject>\n")
          .Append(CultureInfo.InvariantCulture, $"<text id=\"details\" x=\"10\" y=\"{height - 10}\"> </text>\n")
          .Append(CultureInfo.InvariantCulture, $"<text id=\"matched\" x=\"{options.Width - Pad}\" y=\"{height - 10}\" text-anchor=\"end\"> </text>\n")
          .Append("<g id=\"frames\">\n");
        WriteNodes(sb, root, total, innerWidth, height - Footer, fontWidth, depth - 1);
        sb.Append("</g>\n</svg>\n");
        return sb.ToString();
    }

    /// <summary>What a cut graph says under its title, given the frame count of its deepest stack.</summary>
    public static string CutNote(int deepestFrames) => string.Create(
        CultureInfo.InvariantCulture,
        $"The deepest stack has {deepestFrames:N0} frames: rows past {MaxFrameRows:N0} are not drawn (grey boxes mark where stacks go on); the speedscope file shows every frame.");

    // Walks with an explicit stack: a stack of 100,000 frames is a tree that deep, far past what the thread's stack holds.
    private int MaxDepth(FlameNode root, long total, double innerWidth)
    {
        var max = 0;
        var pending = new Stack<(FlameNode Node, int Depth)>();
        pending.Push((root, 0));
        while (pending.TryPop(out var item))
        {
            max = Math.Max(max, item.Depth);
            foreach (var child in item.Node.Children)
            {
                if (child.Value * innerWidth / total >= options.MinWidthPixels)
                {
                    pending.Push((child, item.Depth + 1));
                }
            }
        }

        return max;
    }

    // Writes every box in the order a recursive walk would (callers first, siblings by name), without recursing.
    private void WriteNodes(StringBuilder sb, FlameNode root, long total, double innerWidth, double bottom, double fontWidth, int deepestFrames)
    {
        var pending = new Stack<(FlameNode Node, int Depth, double X, double Width)>();
        pending.Push((root, 0, Pad, innerWidth));
        var children = new List<(FlameNode Node, int Depth, double X, double Width)>();
        while (pending.TryPop(out var item))
        {
            var cutHere = item.Depth > DeepestDrawnDepth;
            WriteNode(sb, item.Node, item.Depth, item.X, item.Width, total, bottom, fontWidth, cutHere ? deepestFrames : null);
            if (cutHere)
            {
                continue;
            }

            children.Clear();
            var childX = item.X;
            foreach (var child in item.Node.Children.OrderBy(c => c.Frame.Symbol, StringComparer.Ordinal).ThenBy(c => c.Frame.Module, StringComparer.Ordinal))
            {
                var childWidth = child.Value * innerWidth / total;
                if (childWidth >= options.MinWidthPixels)
                {
                    children.Add((child, item.Depth + 1, childX, childWidth));
                }

                childX += childWidth;
            }

            for (var i = children.Count - 1; i >= 0; i--)
            {
                pending.Push(children[i]);
            }
        }
    }

    private void WriteNode(StringBuilder sb, FlameNode node, int depth, double x, double width, long total, double bottom, double fontWidth, int? cutDeepestFrames)
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
        if (cutDeepestFrames is { } deepest)
        {
            fill = "rgb(190,190,190)";
            name = "[not drawn] " + name;
            stats += string.Create(CultureInfo.InvariantCulture, $"; this frame and those it calls are past row {MaxFrameRows:N0} (the deepest stack has {deepest:N0} frames)");
        }

        sb.Append("<g><title>").Append(Escape(name)).Append('\n').Append(Escape(module)).Append('\n').Append(Escape(stats)).Append("</title>")
          .Append("<rect x=\"").Append(Num(x)).Append("\" y=\"").Append(Num(y)).Append("\" width=\"").Append(Num(width))
          .Append("\" height=\"").Append(options.FrameHeight - 1).Append("\" fill=\"").Append(fill).Append("\" rx=\"2\"/>")
          .Append("<text x=\"").Append(Num(x + 3)).Append("\" y=\"").Append(Num(y + options.FrameHeight - 4.5)).Append("\">")
          .Append(Escape(Label(name, width, fontWidth))).Append("</text></g>\n");
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
