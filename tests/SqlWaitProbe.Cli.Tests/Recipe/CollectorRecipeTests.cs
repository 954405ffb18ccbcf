using SqlWaitProbe.Capture;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Linux;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Reporting;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows;

namespace SqlWaitProbe.Cli.Tests.Recipe;

/// <summary>
/// The collector recipe, proven rather than promised: a collector made of one folder (<see cref="LoadAverageModule"/>)
/// and registered through the public extension point alone writes its bundle file in a real capture, is read back into
/// the analysis, and shows in the report.
/// </summary>
public sealed class CollectorRecipeTests
{
    [Fact]
    public async Task A_collector_added_by_the_recipe_writes_its_file_is_analysed_and_shows_in_the_report()
    {
        var module = new LoadAverageModule();

        // The registration: this machine's catalog with the module in it, and its analysis side beside the others'.
        var collectors = new OsCollectorCatalog([.. LinuxCollectors.All, module], [.. WindowsCollectors.All.SelectMany(m => m.Options)]);
        var analysis = Registered.Analysis with { Collectors = [.. Registered.Analysis.Collectors, module] };

        var root = Path.Combine(TestData.TempFolder("recipe"), "bundle");
        var options = OptionValues.Of(
            (CommonOptions.Workload, "noop"), (CommonOptions.Threads, "2"), (CommonOptions.Duration, "3s"), (CommonOptions.NoBaseline, true),
            (CpuOptions.Cpu, "none"), (SessionOptions.Output, new DirectoryInfo(root)), (LoadAverageModule.IntervalMs, 200));
        var scope = RunScope.NewCapture();
        var engine = Registered.Engines.Single(e => e.Name == "postgres").Create(options, new EngineContext(null, scope));
        var request = CaptureRequest.Build(options, engine, collectors, scope);

        var outcome = await CaptureSession.RunAsync(request, new CaptureLog(new TestConsole(), verbose: false), TextWriter.Null, new Progress<string>(), CancellationToken.None);

        Assert.Equal(BundleStatus.Complete, outcome.Status);
        using var bundle = CaptureBundle.Open(root);
        Assert.Equal(CollectorStatus.Ok, Assert.Single(bundle.Manifest.Collectors, c => c.Name == "loadavg").Status);
        Assert.Contains(bundle.Manifest.Files, f => f.Path == LoadAverageFile.PathOf("load"));
        Assert.Equal("200", bundle.Manifest.Options["--loadavg-ms"]);

        var report = Path.Combine(root, "report");
        var result = await ReportBuilder.BuildReportAsync(bundle, report, new ReportOptions { Modules = analysis, FlameGraphs = null, Png = false }, new Progress<string>(), CancellationToken.None);

        var stats = result.Analysis.Phases.Single().Evidence.Get<LoadAverageStats>();
        Assert.NotNull(stats);
        Assert.InRange(stats.Readings, 5, 40);
        // Equal readings average to their value give or take the last bit of a double.
        Assert.True(stats.MaxLoad1 >= stats.MeanLoad1 - 1e-9, $"max {stats.MaxLoad1} below mean {stats.MeanLoad1}");
        var markdown = File.ReadAllText(Path.Combine(report, "report.md"));
        Assert.Contains("## Load average", markdown, StringComparison.Ordinal);
        Assert.Contains($"| load | {stats.Readings} |", markdown, StringComparison.Ordinal);
        Assert.Contains("Load average", File.ReadAllText(Path.Combine(report, "report.html")), StringComparison.Ordinal);
    }

    [Fact]
    public void The_module_declares_its_option_once_with_its_check()
    {
        var error = Assert.Throws<BadInputException>(() => OptionValues.Of((LoadAverageModule.IntervalMs, 5)).Get(LoadAverageModule.IntervalMs));

        Assert.Equal("--loadavg-ms must be from 10 to 60000", error.Message);
        Assert.Equal(1000, OptionValues.None.Get(LoadAverageModule.IntervalMs));
    }
}
