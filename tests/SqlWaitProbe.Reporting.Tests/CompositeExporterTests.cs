using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Reporting.Output;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

public sealed class CompositeExporterTests
{
    /// <summary>An output that writes one file.</summary>
    private sealed class FileOutput(string name) : IReportExporter<string>
    {
        public string Name => name;

        public void Export(string report, ReportFolder folder, CancellationToken cancellationToken) => folder.Write(name, report);
    }

    /// <summary>An output whose rendering fails as a bug would.</summary>
    private sealed class BrokenOutput : IReportExporter<string>
    {
        public string Name => "broken.html";

        public void Export(string report, ReportFolder folder, CancellationToken cancellationToken) => throw new InvalidOperationException("the renderer met a block it does not know");
    }

    /// <summary>An output that meets a name from the bundle it must refuse.</summary>
    private sealed class RefusingOutput : IReportExporter<string>
    {
        public string Name => "refusing";

        public void Export(string report, ReportFolder folder, CancellationToken cancellationToken) => folder.Write("../outside.txt", report);
    }

    [Fact]
    public void One_output_that_fails_is_reported_and_the_outputs_after_it_still_write()
    {
        var folder = new ReportFolder(TestData.TempFolder("composite"), new Progress<string>());

        new CompositeExporter<string>([new FileOutput("a.md"), new BrokenOutput(), new FileOutput("b.json")]).Export("text", folder, CancellationToken.None);

        Assert.Equal(["a.md", "b.json"], folder.Files.Select(Path.GetFileName));
        Assert.Equal("broken.html not written: the renderer met a block it does not know", Assert.Single(folder.Failures));
        Assert.Contains("broken.html not written: the renderer met a block it does not know", folder.Notes);
        Assert.Equal("text", File.ReadAllText(Path.Combine(folder.Root, "b.json")));
    }

    [Fact]
    public void A_name_that_would_leave_the_folder_stops_every_output()
    {
        var folder = new ReportFolder(TestData.TempFolder("composite"), new Progress<string>());

        Assert.Throws<BadInputException>(() => new CompositeExporter<string>([new RefusingOutput(), new FileOutput("b.json")]).Export("text", folder, CancellationToken.None));
        Assert.Empty(folder.Files);
    }

    [Fact]
    public async Task A_flame_graph_renderer_that_fails_leaves_the_report_written_with_a_note()
    {
        var root = new CraftedBundle().Phase("load", 1, 10, 10).Sessions("load", 50).Stack("load", "sqlservr;sqllang!Exec", 10).Write();
        using var bundle = Core.Bundle.CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false, FlameGraphs = new FailingRenderer() }, new Progress<string>(), CancellationToken.None);

        Assert.Equal("flame graphs not written: no fonts", Assert.Single(result.Failures));
        Assert.Contains(result.Files, f => f.EndsWith("report.html", StringComparison.Ordinal));
        Assert.Contains("flame graphs not written: no fonts", File.ReadAllText(Path.Combine(output, "report.md")), StringComparison.Ordinal);
    }

    /// <summary>A renderer that fails on every graph, as one missing a resource would.</summary>
    private sealed class FailingRenderer : IFlameGraphRenderer
    {
        public string Render(Core.Stacks.StackProfile profile, string title) => throw new InvalidOperationException("no fonts");

        public string RenderDiff(Core.Stacks.StackProfile before, double beforeExecutions, Core.Stacks.StackProfile after, double afterExecutions, string title) => throw new InvalidOperationException("no fonts");
    }
}
