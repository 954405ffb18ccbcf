namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// A chart or flame graph shown inline where a format can (HTML); its file is written beside the report and listed
/// there, so a format that cannot inline it loses nothing.
/// </summary>
/// <param name="Name">The figure's name (a phase, <c>diff</c>, <c>offcpu-PHASE</c>, a chart's name).</param>
/// <param name="Title">The heading shown above a flame graph; empty for a chart, whose SVG carries its own title.</param>
/// <param name="Svg">The SVG text.</param>
/// <param name="Interactive">True for a flame graph (scripted, shown in a sandboxed frame); false for a static chart.</param>
public sealed record FigureBlock(string Name, string Title, string Svg, bool Interactive) : ReportBlock;
