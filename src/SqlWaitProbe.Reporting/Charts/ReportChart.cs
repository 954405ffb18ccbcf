using ScottPlot;

namespace SqlWaitProbe.Reporting.Charts;

/// <summary>One chart of the report, drawn by ScottPlot: SVG text for the HTML report and <c>charts/NAME.svg</c>, PNG on request.</summary>
public sealed class ReportChart
{
    /// <summary>Width of every chart in pixels.</summary>
    public const int Width = 960;

    /// <summary>Height of every chart in pixels.</summary>
    public const int Height = 540;

    private readonly Plot _plot;
    private string? _svg;

    internal ReportChart(string name, string title, Plot plot)
    {
        Name = name;
        Title = title;
        _plot = plot;
    }

    /// <summary>File name without extension, e.g. <c>scalability</c>.</summary>
    public string Name { get; }

    /// <summary>The chart's title.</summary>
    public string Title { get; }

    /// <summary>The chart as an SVG document without an XML declaration, so it can also be placed inline in HTML.</summary>
    public string Svg => _svg ??= WithoutXmlDeclaration(_plot.GetSvgXml(Width, Height));

    /// <summary>The chart as PNG bytes.</summary>
    public byte[] Png() => _plot.GetImageBytes(Width, Height, ImageFormat.Png);

    /// <summary>Deconstructs into name, title and SVG.</summary>
    public void Deconstruct(out string name, out string title, out string svg) => (name, title, svg) = (Name, Title, Svg);

    private static string WithoutXmlDeclaration(string svg)
    {
        var text = svg.TrimStart();
        return text.StartsWith("<?xml", StringComparison.Ordinal) && text.IndexOf("?>", StringComparison.Ordinal) is var end and > 0
            ? text[(end + 2)..].TrimStart()
            : text;
    }
}
